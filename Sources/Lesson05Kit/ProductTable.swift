import WorkshopCore
import WorkshopServer

/// The app's local database of products, on one SQLite connection, counting every
/// query it issues so a lesson can show how many round trips into SQLite a job made.
///
/// Not Sendable, like the `SQLiteDatabase` connection inside it: open one per thread or
/// serial queue (opening is cheap: SQLite reads the file's header, nothing more).
public final class ProductTable {
    public let database: SQLiteDatabase
    /// SELECT statements run through this table so far.
    public private(set) var queriesIssued = 0

    /// Opens the table in the database file at `path` (made by `create(at:products:)`).
    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
    }

    /// Creates (or replaces) a database file holding `products`, in one transaction.
    public static func create(at path: String, products: [Product]) throws {
        let database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            DROP TABLE IF EXISTS product;
            CREATE TABLE product (code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, price_yen INTEGER NOT NULL);
            """)
        try database.transaction {
            let insert = try database.prepare("INSERT INTO product (code, name, price_yen) VALUES (?, ?, ?)")
            for product in products {
                try insert.run([.text(product.code), .text(product.name), .integer(Int64(product.priceYen))])
            }
        }
    }

    /// One product by its code: one query. Like a Core Data fetch request, each call builds
    /// its statement anew (prepare, bind, step, finalize), even though the key is indexed.
    public func product(code: String) throws -> Product? {
        queriesIssued += 1
        return try database.query("SELECT code, name, price_yen FROM product WHERE code = ?", [.text(code)])
            .first.flatMap(Self.product)
    }

    /// Every product: one query.
    public func allProducts() throws -> [Product] {
        queriesIssued += 1
        return try database.query("SELECT code, name, price_yen FROM product").compactMap(Self.product)
    }

    /// Rows in the table (not counted: it is bookkeeping, not the app's work).
    public func count() throws -> Int {
        Int(try database.query("SELECT count(*) FROM product").first?.first?.int ?? 0)
    }

    private static func product(_ row: [SQLValue]) -> Product? {
        guard row.count == 3, let code = row[0].string, let name = row[1].string, let price = row[2].int else {
            return nil
        }
        return Product(code: code, name: name, priceYen: Int(price))
    }
}
