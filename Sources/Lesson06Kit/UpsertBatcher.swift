import WorkshopCore

/// Writes many rows with multi-row upserts:
///
///     INSERT INTO tblA (id, message, flg) VALUES (?, ?, ?), (?, ?, ?), ...
///     ON CONFLICT(id) DO UPDATE SET message = excluded.message, flg = excluded.flg
///
/// How many rows go into one statement is read from the connection at run time, never
/// hard-coded: every row needs one bound value per column, and a statement may carry at
/// most `variableLimit` of them (999 on the iPhones of the article's time, 250,000 here).
/// The SQL text must also fit `sqlLengthLimit`.
///
/// Lives on one connection, so on one thread or serial queue (it is not Sendable).
public final class UpsertBatcher {
    let database: SQLiteDatabase
    let table: String
    let columns: [String]
    /// The primary key: a row whose key exists is updated in place, not deleted and re-inserted.
    let key: String
    /// Rows in one statement, from the limits at the time the batcher was made.
    public let rowsPerStatement: Int
    /// Statements run so far (a test counts them to prove the batches follow the limit).
    public private(set) var statementsRun = 0
    /// Prepared statements by row count: the full-size one is compiled once and reused.
    private var prepared: [Int: SQLiteStatement] = [:]

    /// `table`, `columns` and `key` are names written in the program, never user input:
    /// SQL cannot bind names, only values.
    public init(
        database: SQLiteDatabase, table: String, columns: [String], key: String,
        maxRowsPerStatement: Int = .max
    ) throws {
        precondition(columns.contains(key), "the key must be one of the columns")
        self.database = database
        self.table = table
        self.columns = columns
        self.key = key
        let byVariables = database.variableLimit / columns.count
        guard byVariables >= 1 else {
            throw LimitTooLow(variableLimit: database.variableLimit, valuesPerRow: columns.count)
        }
        let placeholder = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + "),"
        let byLength = (database.sqlLengthLimit - 1_000) / placeholder.utf8.count
        rowsPerStatement = max(1, min(byVariables, byLength, maxRowsPerStatement))
    }

    struct LimitTooLow: Error, CustomStringConvertible {
        let variableLimit: Int
        let valuesPerRow: Int
        var description: String { "the variable limit \(variableLimit) is below one row of \(valuesPerRow) values" }
    }

    /// The SQL for `rows` rows. Only `?` placeholders: the values are bound later.
    func sql(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let updates = columns.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
            + " ON CONFLICT(\(key)) DO UPDATE SET \(updates)"
    }

    /// Upserts `rows` (each with one value per column), `rowsPerStatement` at a time.
    /// Wrap the call in a transaction: then a failing row undoes the whole call.
    public func write<Rows: Collection>(_ rows: Rows) throws where Rows.Element == [SQLValue] {
        var pending = rows[...]
        while !pending.isEmpty {
            let chunk = pending.prefix(rowsPerStatement)
            pending = pending.dropFirst(chunk.count)
            try statement(rows: chunk.count).run(
                chunk.flatMap { row in
                    precondition(row.count == columns.count, "each row needs one value per column")
                    return row
                })
            statementsRun += 1
        }
    }

    private func statement(rows: Int) throws -> SQLiteStatement {
        if let ready = prepared[rows] { return ready }
        let statement = try database.prepare(sql(rows: rows))
        // Keep only the full-size statement and the latest short one (the tail of a batch).
        if prepared.count > 1 { prepared = prepared.filter { $0.key == rowsPerStatement } }
        prepared[rows] = statement
        return statement
    }
}
