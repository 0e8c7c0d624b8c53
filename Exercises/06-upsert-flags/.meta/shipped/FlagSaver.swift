// Exercise 06: turn insert-or-replace into an upsert that keeps columns, batched by SQLite's variable limit.
// Check it: swift run workshop check 06
import WorkshopCore

/// Saves (id, flg) pairs into the article's table
/// `create table tblA (id text, message text, flg boolean, primary key (id))`.
/// Some ids exist already, with a message and maybe replies that point at them with
/// `ON DELETE CASCADE`; some are new. A row that exists must keep its message and stay the
/// same row (so its replies survive), and any number of pairs must work under any
/// `database.variableLimit` (bound values per statement), in a few multi-row statements.
///
/// As shipped it is the article's last step: `insert or replace`, every pair in one statement.
public enum FlagSaver {
    public static func saveFlags(_ flags: [(id: String, flg: Bool)], into database: SQLiteDatabase) throws {
        guard !flags.isEmpty else { return }

        // TODO(1): `insert or replace` deletes the old row and inserts a new one.
        let rows = Array(repeating: "(?, ?)", count: flags.count).joined(separator: ", ")
        let sql = "insert or replace into tblA (id, flg) values " + rows

        // TODO(2): two values per pair, all in one statement: too many for a small limit.
        let values: [SQLValue] = flags.flatMap { [.text($0.id), .integer($0.flg ? 1 : 0)] }
        try database.run(sql, values)
    }
}
