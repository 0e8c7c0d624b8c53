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

        // Two bound values per pair; read the limit from the connection, never assume it.
        let perStatement = max(1, database.variableLimit / 2)
        try database.transaction {
            for start in stride(from: 0, to: flags.count, by: perStatement) {
                let chunk = flags[start..<min(start + perStatement, flags.count)]
                let sql =
                    "insert into tblA (id, flg) values "
                    + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
                    + " on conflict(id) do update set flg = excluded.flg"
                try database.run(sql, chunk.flatMap { [.text($0.id), .integer($0.flg ? 1 : 0)] })
            }
        }
    }
}
