import WorkshopCore

/// The article's terminal session, step by step, on a real database file.
///
/// Each step shows the SQL the way the author typed it into `sqlite3`, but runs it with
/// `?` placeholders and bound values (the values never become SQL text). After each step
/// the table is printed exactly as `sqlite3` prints `select * from tblA order by id;`.
public enum ArticleSession {
    public struct Step: Sendable {
        /// What the step shows (one sentence).
        public var title: String
        /// The statement as the article typed it.
        public var typed: String
        /// The same statement with placeholders, and its values.
        var sql: String
        var values: [SQLValue]
    }

    public struct Outcome: Sendable {
        public var step: Step
        /// SQLite's own message when the statement failed ("UNIQUE constraint failed: tblA.id").
        public var error: String?
        /// `select * from tblA order by id;` afterwards, one `id|message|flg` line per row.
        public var rows: [String]
    }

    static let steps: [Step] = [
        Step(
            title: "the table (the article's own schema)",
            typed: "create table tblA (id text,message text,flg boolean,primary key (id));",
            sql: "create table tblA (id text,message text,flg boolean,primary key (id))", values: []),
        Step(
            title: "two rows",
            typed: "insert into tblA (id,message,flg) values ('100','a',0),('200','b',0);",
            sql: "insert into tblA (id,message,flg) values (?,?,?),(?,?,?)",
            values: ["100", "a", 0, "200", "b", 0]),
        Step(
            title: "a key that exists: the whole statement fails, '300' is not added either",
            typed: "insert into tblA (id,message,flg) values ('100','A',1),('300','c',1);",
            sql: "insert into tblA (id,message,flg) values (?,?,?),(?,?,?)",
            values: ["100", "A", 1, "300", "c", 1]),
        Step(
            title: "insert or replace: the existing row is overwritten",
            typed: "insert or replace into tblA (id,message,flg) values ('100','A',1),('300','c',1);",
            sql: "insert or replace into tblA (id,message,flg) values (?,?,?),(?,?,?)",
            values: ["100", "A", 1, "300", "c", 1]),
        Step(
            title: "insert or replace without message: the message is gone (delete + insert)",
            typed: "insert or replace into tblA (id,flg) values ('100',1),('300',1);",
            sql: "insert or replace into tblA (id,flg) values (?,?),(?,?)",
            values: ["100", 1, "300", 1]),
        Step(
            title: "a real upsert puts the messages back",
            typed:
                "insert into tblA (id,message,flg) values ('100','A',1),('300','c',1) on conflict(id) do update set message=excluded.message,flg=excluded.flg;",
            sql:
                "insert into tblA (id,message,flg) values (?,?,?),(?,?,?) on conflict(id) do update set message=excluded.message,flg=excluded.flg",
            values: ["100", "A", 1, "300", "c", 1]),
        Step(
            title: "an upsert without message: the message stays (update in place)",
            typed:
                "insert into tblA (id,flg) values ('100',0),('300',0) on conflict(id) do update set flg=excluded.flg;",
            sql: "insert into tblA (id,flg) values (?,?),(?,?) on conflict(id) do update set flg=excluded.flg",
            values: ["100", 0, "300", 0]),
        // Not in the article: ON CONFLICT ... DO UPDATE needs SQLite 3.24.0 (2018). Before it,
        // the answer was two statements per row in one transaction: update the row if it
        // exists, then insert or ignore (which skips every key that exists).
        Step(
            title: "before SQLite 3.24 (no upsert yet), step one: update the row that exists",
            typed: "update tblA set message='B',flg=1 where id='100';",
            sql: "update tblA set message = ?, flg = ? where id = ?", values: ["B", 1, "100"]),
        Step(
            title: "step two: insert or ignore adds '400' and skips '100', which exists",
            typed: "insert or ignore into tblA (id,message,flg) values ('100','B',1),('400','d',1);",
            sql: "insert or ignore into tblA (id,message,flg) values (?,?,?),(?,?,?)",
            values: ["100", "B", 1, "400", "d", 1]),
    ]

    /// What the article printed after each of its steps, and what the upsert steps and the
    /// two steps of the period answer must print.
    public static let expectedRows: [[String]] = [
        [],
        ["100|a|0", "200|b|0"],
        ["100|a|0", "200|b|0"],
        ["100|A|1", "200|b|0", "300|c|1"],
        ["100||1", "200|b|0", "300||1"],
        ["100|A|1", "200|b|0", "300|c|1"],
        ["100|A|0", "200|b|0", "300|c|0"],
        ["100|B|1", "200|b|0", "300|c|0"],
        ["100|B|1", "200|b|0", "300|c|0", "400|d|1"],
    ]

    /// Runs every step on `database` (which must not have a tblA yet).
    public static func replay(on database: SQLiteDatabase) throws -> [Outcome] {
        try steps.map { step in
            var error: String?
            do {
                try database.run(step.sql, step.values)
            } catch let failure as SQLiteError where failure.isConstraint {
                error = failure.message  // expected in step 3; anything else is a real failure
            }
            return Outcome(
                step: step, error: error,
                rows: try database.shellLines("select * from tblA order by id"))
        }
    }

    /// The session as a terminal would show it.
    public static func transcript(_ outcomes: [Outcome]) -> String {
        var lines: [String] = []
        for (number, outcome) in outcomes.enumerated() {
            lines.append("-- \(number + 1). \(localized(outcome.step.title))")
            lines.append("sqlite> \(outcome.step.typed)")
            if let error = outcome.error { lines.append("Error: \(error)") }
            lines.append("sqlite> select * from tblA order by id;")
            lines.append(contentsOf: outcome.rows)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
