import ExerciseChecks
import Lesson06Kit
import WorkshopCore

/// The checks of exercise 06 (Exercises/06-upsert-flags): an upsert that keeps columns, in
/// batches sized from SQLite's variable limit.
public enum Exercise06Checks {
    public typealias SaveFlags = ([(id: String, flg: Bool)], SQLiteDatabase) throws -> Void

    /// A private in-memory database with tblA (ids "1" to "\(existing)", message "m<id>", flg 0)
    /// and a reply table whose rows go with their parent (ON DELETE CASCADE).
    static func database(existing: Int) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute(
            """
            PRAGMA foreign_keys = ON;
            \(ArticleSchema.table);
            \(ArticleSchema.replies);
            """)
        let insert = try database.prepare("insert into tblA (id, message, flg) values (?, ?, 0)")
        try database.transaction {
            for i in stride(from: 1, through: existing, by: 1) { try insert.run([.text(String(i)), .text("m\(i)")]) }
        }
        return database
    }

    /// The rows `keepsMessages` wants, as `id|message|flg`.
    static let keptRows = ["1|m1|0", "2|m2|1", "3|m3|0", "4|m4|1", "5|m5|0", "9||1"]

    // The checks, in the order they report: each declared once, in both languages.
    static let keepsMessage = Check(
        "a row that exists keeps its message", ja: "既存の行は message を失わない",
        wanted: keptRows.joined(separator: "  "), ja: keptRows.joined(separator: "  "), hint: 1)
    static let sameRow = Check(
        "a row that exists stays the same row (its replies survive)", ja: "既存の行は同じ行のまま残る（返信も消えない）",
        wanted: "row 2 keeps rowid 2 and its 1 reply", ja: "行 2 が rowid 2 と 1 件の返信を保つ", hint: 2)
    static let anyVariableLimit = Check(
        "works under any variable limit", ja: "どの変数の上限でも動く",
        wanted: "1,000 pairs under a limit of 7 and 2,000 under 999: every flag 1",
        ja: "上限 7 で 1,000 組、上限 999 で 2,000 組を保存して、すべての flg が 1", hint: 3)
    static let fewStatements = Check(
        "multi-row statements sized from the limit, not one per pair",
        ja: "1 組ごとのステートメントではなく、上限から決めた大きさの複数行ステートメントで保存する",
        wanted: "1,000 pairs under a limit of 999 in at most 10 statements (499 pairs fit in one)",
        ja: "上限 999 で 1,000 組を 10 個以下のステートメントで保存する（1 つに 499 組入る）", hint: 3)
    public static let all = [keepsMessage, sameRow, anyVariableLimit, fewStatements]

    /// Runs every check against `saveFlags`.
    public static func run(_ saveFlags: SaveFlags) -> [CheckResult] {
        [keepsMessages(saveFlags), keepsRows(saveFlags), anyLimit(saveFlags), batches(saveFlags)]
    }

    static func failed(_ check: Check, _ error: Error) -> CheckResult {
        // SQLite's message without the statement (which can be thousands of `(?, ?)` long),
        // word for word: it is what a search finds.
        let got =
            (error as? SQLiteError).map {
                localized(
                    format: "it threw: %1$@ (SQLite code %2$d)", ja: "エラーが投げられました:「%1$@」（SQLite のコード %2$d）", $0.message,
                    Int($0.code))
            } ?? localized(format: "it threw: %@", ja: "エラーが投げられました:「%@」", "\(error)")
        return check.result(false, got: got)
    }

    static func keepsMessages(_ saveFlags: SaveFlags) -> CheckResult {
        do {
            let database = try database(existing: 5)
            try saveFlags([("2", true), ("4", true), ("9", true)], database)
            let got = try database.shellLines("select * from tblA order by id")
            return keepsMessage.result(got == keptRows, got: got.joined(separator: "  "))
        } catch {
            return failed(keepsMessage, error)
        }
    }

    static func keepsRows(_ saveFlags: SaveFlags) -> CheckResult {
        do {
            let database = try database(existing: 3)
            try database.run("insert into reply (parent, body) values (?, ?)", ["2", "a reply to row 2"])
            try saveFlags([("2", true)], database)
            let rowid = try database.query("select rowid from tblA where id = ?", ["2"]).first?.first?.int
            let replies =
                try database.query("select count(*) from reply where parent = ?", ["2"]).first?.first?.int ?? 0
            return sameRow.result(
                rowid == 2 && replies == 1,
                got: localized(
                    format: "row 2 has rowid %1$@ and %2$@", ja: "行 2 の rowid は %1$@、返信は %2$@",
                    rowid.map(String.init) ?? localized("none", ja: "なし"),
                    localized(count: Int(replies), "%d reply", "%d replies", ja: "%d 件")))
        } catch {
            return failed(sameRow, error)
        }
    }

    static func anyLimit(_ saveFlags: SaveFlags) -> CheckResult {
        do {
            var got: [String] = []
            var passed = true
            for (limit, pairs) in [(7, 1_000), (999, 2_000)] {
                let database = try database(existing: pairs / 2)
                database.variableLimit = limit
                try saveFlags((1...pairs).map { (String($0), true) }, database)
                let set = try database.query("select count(*) from tblA where flg = 1").first?.first?.int ?? 0
                got.append(
                    localized(
                        format: "limit %1$d: %2$d of %3$d flags set", ja: "上限 %1$d: %3$d 件中 %2$d 件の flg が立った", limit,
                        set, pairs))
                passed = passed && set == pairs
            }
            return anyVariableLimit.result(passed, got: got.joined(separator: "; "))
        } catch {
            return failed(anyVariableLimit, error)
        }
    }

    static func batches(_ saveFlags: SaveFlags) -> CheckResult {
        do {
            let database = try database(existing: 500)
            database.variableLimit = 999
            let (_, statements) = try database.countingStatements {
                try saveFlags((1...1_000).map { (String($0), $0 % 2 == 0) }, database)
            }
            let right =
                try database.query("select count(*) from tblA where flg = (cast(id as integer) % 2 = 0)").first?.first?
                .int ?? 0
            return fewStatements.result(
                statements <= 10 && right == 1_000,
                got: localized(
                    format: "%1$@, %2$d of 1000 flags right", ja: "%1$@、1000 件中 %2$d 件の flg が正しい",
                    localized(count: statements, "%d statement", "%d statements", ja: "%d 個のステートメント"),
                    right))
        } catch {
            return failed(fewStatements, error)
        }
    }
}
