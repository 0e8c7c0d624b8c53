import WorkshopCore

/// The article's "500 limit", then and now.
///
/// The author's `sqlite3` stopped at exactly 500 rows with "too many terms in compound
/// SELECT". Before SQLite 3.8.8 (January 2015) a multi-row `VALUES` was compiled as a
/// compound SELECT, one term per row, and compound SELECTs are limited to
/// `SQLITE_LIMIT_COMPOUND_SELECT` (500) terms. Since 3.8.8 `VALUES` is exempt; a real
/// `SELECT ... UNION ALL SELECT ...` still is not. What limits a multi-row `VALUES` today is
/// the number of bound values per statement, `SQLITE_LIMIT_VARIABLE_NUMBER`.
public enum FiveHundredLimit {
    public struct Findings: Sendable {
        public var libraryVersion: String
        public var compoundSelectLimit: Int
        /// SQLite's message for a compound SELECT one term over the limit (nil: it worked).
        public var compoundOverLimitError: String?
        public var compoundAtLimitWorked: Bool
        /// A multi-row VALUES with one more row than the compound limit.
        public var valuesOverCompoundLimitWorked: Bool
        public var variableLimit: Int
        public var oldVariableLimit: Int
        /// With the limit lowered to the old 999: one VALUES with 334 rows (1,002 values).
        public var tooManyVariablesError: String?
        /// ... and the batcher, which reads the limit: rows per statement and statements for 1,000 rows.
        public var batchedRowsPerStatement: Int
        public var batchedStatements: Int
        public var batchedRowsWritten: Int
    }

    static func row(_ i: Int) -> [SQLValue] { [.text(String(i)), .text("m\(i)"), .integer(Int64(i % 2))] }

    public static func run(on database: SQLiteDatabase, oldVariableLimit: Int = 999) throws -> Findings {
        try database.execute(ArticleSchema.table)
        let terms = database.compoundSelectLimit

        // INSERT ... SELECT ?,?,? UNION ALL SELECT ?,?,? ...: one compound term per row.
        // Returns SQLite's message, or nil when it worked.
        func compound(_ rows: Int, from first: Int) -> String? {
            let sql =
                "insert into tblA (id, message, flg) "
                + Array(repeating: "select ?, ?, ?", count: rows).joined(separator: " union all ")
            do {
                try database.run(sql, (first..<first + rows).flatMap(row))
                return nil
            } catch {
                return (error as? SQLiteError)?.message ?? "\(error)"
            }
        }
        let atLimit = compound(terms, from: 0)
        let overLimit = compound(terms + 1, from: 10_000)

        // The same number of rows as one multi-row VALUES.
        let values =
            "insert into tblA (id, message, flg) values "
            + Array(repeating: "(?, ?, ?)", count: terms + 1).joined(separator: ", ")
        let valuesWorked = (try? database.run(values, (20_000..<20_000 + terms + 1).flatMap(row))) != nil

        // Back to the iPhone's 999 bound values per statement.
        let variableLimit = database.variableLimit
        database.variableLimit = oldVariableLimit
        defer { database.variableLimit = variableLimit }
        let overRows = oldVariableLimit / ArticleSchema.columns.count + 1
        let tooMany =
            "insert into tblA (id, message, flg) values "
            + Array(repeating: "(?, ?, ?)", count: overRows).joined(separator: ", ")
        var tooManyError: String?
        do {
            try database.run(tooMany, (30_000..<30_000 + overRows).flatMap(row))
        } catch let error as SQLiteError {
            tooManyError = error.message
        }
        // The batcher sizes its statements from the (lowered) limit, so it just works.
        let batcher = try UpsertBatcher(
            database: database, table: ArticleSchema.name, columns: ArticleSchema.columns, key: ArticleSchema.key)
        try database.transaction { try batcher.write((40_000..<41_000).map(row)) }
        let written =
            try database.query("select count(*) from tblA where cast(id as integer) between 40000 and 40999").first?
            .first?.int ?? 0

        return Findings(
            libraryVersion: SQLiteDatabase.libraryVersion, compoundSelectLimit: terms,
            compoundOverLimitError: overLimit, compoundAtLimitWorked: atLimit == nil,
            valuesOverCompoundLimitWorked: valuesWorked, variableLimit: variableLimit,
            oldVariableLimit: oldVariableLimit, tooManyVariablesError: tooManyError,
            batchedRowsPerStatement: batcher.rowsPerStatement, batchedStatements: batcher.statementsRun,
            batchedRowsWritten: Int(written))
    }

    static func report(_ f: Findings) -> String {
        // SQLite's own error messages stay as SQLite (and the sqlite3 shell) prints them.
        let (ok, failed) = (localized("ok"), localized("failed"))
        return [
            localized(
                "SQLite %@: compound SELECT limit %d terms, %d bound values per statement.", f.libraryVersion,
                f.compoundSelectLimit, f.variableLimit),
            localized(
                "  INSERT ... SELECT with %d UNION ALL terms: %@", f.compoundSelectLimit,
                f.compoundAtLimitWorked ? ok : failed),
            localized(
                "  INSERT ... SELECT with %d terms: %@", f.compoundSelectLimit + 1,
                f.compoundOverLimitError.map { "Error: \($0)" } ?? ok),
            localized(
                "  INSERT ... VALUES with %d rows: %@", f.compoundSelectLimit + 1,
                f.valuesOverCompoundLimitWorked ? localized("ok (VALUES is exempt since SQLite 3.8.8)") : failed),
            localized(
                "  with the limit lowered to %d values: VALUES with %d rows: %@", f.oldVariableLimit,
                f.oldVariableLimit / 3 + 1, f.tooManyVariablesError.map { "Error: \($0)" } ?? ok),
            localized(
                "  the batcher reads that limit: %d rows per statement, 1,000 rows in %d statements, %d written",
                f.batchedRowsPerStatement, f.batchedStatements, f.batchedRowsWritten),
        ].joined(separator: "\n")
    }
}
