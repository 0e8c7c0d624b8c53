import Foundation
import WorkshopCore
import WorkshopServer

/// What every launch shares: the server, the local database, the sizes.
public struct ShopSetup: LessonSetup {
    public var endpoint: FixtureEndpoint
    /// Holds the products database and each variant's HTTP cache; removed at the end.
    public let scratch: ScratchFolder
    public var databasePath: String
    public var products: Int
    public var orders: Int
    /// Upper bound for one launch; a launch that has not finished by then has failed.
    public var launchTimeoutSeconds: Double

    public var ordersURL: URL { endpoint.url("/orders?count=\(orders)&products=\(products)") }

    /// What the server says about reusing the orders, for the banner.
    public var cacheControl: String {
        guard let server = endpoint.server else { return localized("its own Cache-Control") }
        return server.knobs.maxAgeSeconds.map { "Cache-Control: max-age=\($0)" } ?? localized("no Cache-Control")
    }

    /// Makes a scratch folder and the products database in it (setup, not measured). With
    /// `maxAge`, our own server sends `Cache-Control: max-age` (none for 0).
    public static func prepare(endpoint: FixtureEndpoint, products: Int, orders: Int, maxAge: Int? = nil) throws
        -> ShopSetup
    {
        if let maxAge { endpoint.server?.knobs.maxAgeSeconds = maxAge > 0 ? maxAge : nil }
        let scratch = try ScratchFolder("lesson05")
        let path = scratch.file("shop.sqlite")
        try ProductTable.create(at: path, products: CatalogAPI.products(count: products))
        return ShopSetup(
            endpoint: endpoint, scratch: scratch, databasePath: path, products: products, orders: orders,
            launchTimeoutSeconds: 60 + 2 * endpoint.timeoutSeconds)
    }

    public func tearDown() {
        endpoint.tearDown()
        scratch.tearDown()
    }
}
