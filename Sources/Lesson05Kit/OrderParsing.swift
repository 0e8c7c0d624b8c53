import Foundation
import WorkshopCore
import WorkshopServer

/// Every product of the local database, by code: the article's NSMutableDictionary.
public typealias ProductIndex = [String: Product]

/// Turning the API's body into orders, each with its product from the local database: the
/// article's `parseResponseBody:`, done two ways.
public enum OrderParsing {
    /// The records in the body. Both ways start here.
    public static func records(from body: [UInt8]) throws -> [OrderRecord] {
        do { return try JSONDecoder().decode([OrderRecord].self, from: Data(body)) } catch {
            throw CatalogError.malformed(String(describing: error))
        }
    }

    /// The natural first version: for each record, ask the database for its product.
    /// M records, M queries, each one a statement built, run and thrown away.
    public static func parseNaive(_ body: [UInt8], products: ProductTable) throws -> [Order] {
        try records(from: body).map { record in
            guard let product = try products.product(code: record.productCode) else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            return Order(record: record, product: product)
        }
    }

    /// The article's fix, step 1, done once at launch: every product in one query, into a
    /// dictionary keyed by code.
    public static func preload(_ products: ProductTable) throws -> ProductIndex {
        // `uniquingKeysWith`: the code is the primary key, so a duplicate cannot happen; if it
        // ever did, keep the first row rather than trap.
        Dictionary(try products.allProducts().map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Step 2: the same parse, with each lookup in the dictionary. No query at all.
    public static func parse(_ body: [UInt8], index: ProductIndex) throws -> [Order] {
        try records(from: body).map { record in
            guard let product = index[record.productCode] else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            return Order(record: record, product: product)
        }
    }
}

/// One order as the app uses it: the record with its product looked up in the local database.
public struct Order: Sendable, Equatable {
    public var id: Int
    public var quantity: Int
    public var product: Product
    public init(record: OrderRecord, product: Product) {
        self.id = record.id
        self.quantity = record.quantity
        self.product = product
    }
    public var totalYen: Int { quantity * product.priceYen }
}

/// Why orders could not be turned into models.
public enum CatalogError: Error, CustomStringConvertible, Equatable {
    /// An order names a product the local database does not have.
    case unknownProduct(code: String, orderID: Int)
    /// The API's body is not the JSON we expected.
    case malformed(String)

    public var description: String {
        switch self {
        case .unknownProduct(let code, let id): "order \(id) names product \(code), which is not in the local database"
        case .malformed(let why): "the orders are not the JSON we expected: \(why)"
        }
    }
}
