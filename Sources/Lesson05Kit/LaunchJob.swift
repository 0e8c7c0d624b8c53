import Foundation
import WorkshopCore

/// The work of one app launch, in steps that either variant can run on any thread.
/// Every step opens its own database connection: a `ProductTable` (like the SQLite
/// connection inside it) is not Sendable, so it never crosses from one queue to another.
public struct LaunchJob: Sendable {
    let databasePath: String
    let ordersURL: URL
    let fetcher: RevalidatingFetcher
    let trace: Trace

    public struct Preloaded: Sendable {
        /// Built on one queue, then only read: a `let` of a value type, safe to hand anywhere.
        public let index: ProductIndex
        public let seconds: Double
        public let queries: Int
    }

    public struct Parsed: Sendable {
        public let orders: [Order]
        public let naiveSeconds: Double
        public let naiveQueries: Int
        public let cachedSeconds: Double
    }

    /// GET /orders through the on-disk HTTP cache: maybe no request, maybe a 304, maybe a download.
    func fetchOrders() throws -> RevalidatingFetcher.Outcome {
        try trace.measure("fetch orders") { try fetcher.get(ordersURL) }
    }

    /// Every product into a dictionary: one query.
    func preload() throws -> Preloaded {
        try trace.measure("pre-load") {
            let table = try ProductTable(path: databasePath)
            let clock = Stopwatch()
            let index = try OrderParsing.preload(table)
            return Preloaded(index: index, seconds: clock.elapsed, queries: table.queriesIssued)
        }
    }

    /// Parses the body both ways, the way the article's author measured his app: first one
    /// query per record, then with the pre-loaded dictionary. Both must give the same orders.
    func parse(_ body: [UInt8], with index: ProductIndex) throws -> Parsed {
        let table = try ProductTable(path: databasePath)
        var clock = Stopwatch()
        let naive = try trace.measure("parse, 1 query per order") { try OrderParsing.parseNaive(body, products: table) }
        let naiveSeconds = clock.elapsed
        clock = Stopwatch()
        let orders = try trace.measure("parse, dictionary") { try OrderParsing.parse(body, index: index) }
        let cachedSeconds = clock.elapsed
        guard naive == orders else { throw LessonFailure(localized("the two parses disagree: a bug in the lesson")) }
        return Parsed(
            orders: orders, naiveSeconds: naiveSeconds, naiveQueries: table.queriesIssued, cachedSeconds: cachedSeconds)
    }
}
