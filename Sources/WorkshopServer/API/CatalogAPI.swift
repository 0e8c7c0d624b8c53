import Foundation
import WorkshopCore

/// The fixture server's shop API, for lesson 05: orders that each name one product, where the
/// products themselves live in the app's local database (lesson 05's `ProductTable`).
///
/// - `GET /orders?count=M&products=K`: M orders as JSON, each naming one of K products by code:
///   `[{"id": 1, "product": "P00042", "quantity": 3}]`. The same query gives the same bytes,
///   so the server's ETag stays the same until the data changes.
public enum CatalogAPI {
    /// The `/orders` route (listed in `FixtureAPI.routes`).
    public static let ordersRoute: FixtureServer.Route = { request, _ in
        let count = request.query["count"].flatMap(Int.init) ?? 100
        let products = request.query["products"].flatMap(Int.init) ?? 1_000
        guard (0...100_000).contains(count) else { return .text(400, "count must be 0...100000") }
        guard (1...1_000_000).contains(products) else { return .text(400, "products must be 1...1000000") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(orders(count: count, products: products)) else {
            return .text(500, "encoding failed")
        }
        return HTTPResponse(contentType: "application/json", body: Array(json))
    }

    /// The code of the product with this index: "P00042".
    public static func productCode(_ index: Int) -> String {
        let digits = String(index)
        return "P" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    private static let teas = ["Sencha", "Gyokuro", "Hojicha", "Genmaicha", "Matcha", "Bancha", "Kukicha", "Oolong"]
    private static let packs = ["50 g tin", "100 g bag", "20 tea bags", "250 g bag", "gift box"]

    /// The products the app keeps in its local database, deterministic for a given count.
    public static func products(count: Int) -> [Product] {
        (0..<count).map { i in
            Product(
                code: productCode(i), name: "\(teas[i % teas.count]) \(packs[(i / teas.count) % packs.count]) #\(i)",
                priceYen: 300 + (i * 37) % 2_700)
        }
    }

    /// The API's orders: each names one of `products` products, spread over all of them.
    public static func orders(count: Int, products: Int) -> [OrderRecord] {
        (0..<count).map { i in
            OrderRecord(id: i + 1, productCode: productCode((i * 7_919) % max(1, products)), quantity: 1 + (i * 5) % 9)
        }
    }
}

/// One product as the app's local database holds it.
public struct Product: Codable, Sendable, Equatable, Hashable {
    public var code: String
    public var name: String
    public var priceYen: Int
    public init(code: String, name: String, priceYen: Int) {
        self.code = code
        self.name = name
        self.priceYen = priceYen
    }
}

/// One order as the API sends it: the product is only named, by its code.
public struct OrderRecord: Codable, Sendable, Equatable {
    public var id: Int
    public var productCode: String
    public var quantity: Int
    enum CodingKeys: String, CodingKey {
        case id, quantity
        case productCode = "product"
    }
    public init(id: Int, productCode: String, quantity: Int) {
        self.id = id
        self.productCode = productCode
        self.quantity = quantity
    }
}
