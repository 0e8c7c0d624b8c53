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
        // TODO(1): each insert commits on its own: a reader may see half a batch, and an error halfway keeps the first half.
        for flag in flags {
            // TODO(2): a message with a quote breaks this SQL (and a crafted one runs SQL of its own). Bind it.
            try database.execute("insert into flags (id, message) values (\(flag.id), '\(flag.message)')")
        }
    }
}
