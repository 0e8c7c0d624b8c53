import WorkshopCore

/// Exercise 06: save flags without losing messages, in batches the connection allows.
///
/// `saveFlags` gets (id, flg) pairs for the article's table
///
///     create table tblA (id text, message text, flg boolean, primary key (id))
///
/// Some ids exist already (with a message, and maybe replies that point at them with
/// `ON DELETE CASCADE`); some are new. It must set every pair's flg and
///   1. keep the message of a row that exists;
///   2. keep a row that exists *the same row*, so its replies survive;
///   3. work for any number of pairs under any `database.variableLimit` (values per
///      statement), in a few multi-row statements rather than one per pair.
///
/// As shipped it is the article's last step: `insert or replace`, every pair in one
/// statement. It loses messages and replies, and fails with "too many SQL variables" once
/// the pairs need more values than the limit allows.
///
/// Check your work:  swift test --filter Exercise06
public enum FlagSaver {
    public static func saveFlags(_ flags: [(id: String, flg: Bool)], into database: SQLiteDatabase) throws {
        guard !flags.isEmpty else { return }

        // TODO: `insert or replace` deletes the old row and inserts a new one.
        let rows = Array(repeating: "(?, ?)", count: flags.count).joined(separator: ", ")
        let sql = "insert or replace into tblA (id, flg) values " + rows

        // TODO: two values per pair, all in one statement: too many for a small limit.
        let values: [SQLValue] = flags.flatMap { [.text($0.id), .integer($0.flg ? 1 : 0)] }
        try database.run(sql, values)
    }
}
