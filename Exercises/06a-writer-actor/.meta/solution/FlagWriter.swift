// Exercise 06a: a writer actor that saves each batch of flags in one transaction, its values bound.
// Check it: swift run workshop check 06a
import WorkshopCore

/// The one writer of the flags table. It owns its connection, and being an actor it runs one
/// save at a time, so however many tasks call `save` at once, the connection is used by one at
/// a time. Readers use connections of their own.
public actor FlagWriter {
    private let database: SQLiteDatabase

    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
    }

    /// Saves one batch: all of its rows, or (on any error) none of them, and throws that error.
    public func save(_ flags: [(id: Int, message: String)]) throws {
        // One transaction: a reader sees the batch whole or not at all, and an error rolls it
        // all back (`transaction` runs ROLLBACK and rethrows).
        try database.transaction {
            // The values travel beside the SQL, never inside it: a quote is just a character.
            let insert = try database.prepare("insert into flags (id, message) values (?, ?)")
            for flag in flags {
                try insert.run([.integer(Int64(flag.id)), .text(flag.message)])
            }
        }
    }
}
