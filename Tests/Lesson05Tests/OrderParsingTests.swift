import Foundation
import Lesson05Kit
import Testing
import WorkshopCore
import WorkshopServer

/// Part 1 without threads or a server: the two ways of parsing, on a real SQLite file.
@Suite struct OrderParsingTests {
    let directory: URL
    let databasePath: String
    static let products = 2_000
    static let orders = 1_500

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lesson05-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = directory.appendingPathComponent("shop.sqlite").path
        try ProductTable.create(at: databasePath, products: CatalogAPI.products(count: Self.products))
    }

    func body(orders: Int = Self.orders, products: Int = Self.products) throws -> [UInt8] {
        Array(try JSONEncoder().encode(CatalogAPI.orders(count: orders, products: products)))
    }

    @Test func cachedParseYieldsTheSameModelsAsTheNaiveOne() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = try body()
        let naive = try OrderParsing.parseNaive(body, products: ProductTable(path: databasePath))
        let cached = try OrderParsing.parse(body, index: OrderParsing.preload(ProductTable(path: databasePath)))
        #expect(naive.count == Self.orders)
        let same = cached == naive  // a Bool, so a failure does not print 1,500 orders twice
        #expect(same, "the cached parse gave other orders than the naive one")
        // And they are the right models, not merely the same wrong ones.
        let catalog = Dictionary(uniqueKeysWithValues: CatalogAPI.products(count: Self.products).map { ($0.code, $0) })
        for (order, record) in zip(cached, CatalogAPI.orders(count: Self.orders, products: Self.products)) {
            #expect(order.id == record.id && order.quantity == record.quantity)
            #expect(order.product == catalog[record.productCode])
        }
    }

    @Test func naiveIssuesOneQueryPerOrderAndThePreloadOne() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = try body()
        let naiveTable = try ProductTable(path: databasePath)
        _ = try OrderParsing.parseNaive(body, products: naiveTable)
        #expect(naiveTable.queriesIssued == Self.orders)

        let cachedTable = try ProductTable(path: databasePath)
        let index = try OrderParsing.preload(cachedTable)
        #expect(index.count == Self.products)
        _ = try OrderParsing.parse(body, index: index)
        _ = try OrderParsing.parse(body, index: index)  // a second parse costs no query either
        #expect(cachedTable.queriesIssued == 1)
    }

    @Test func anOrderNamingAnUnknownProductIsAClearErrorBothWays() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The API knows 500 more products than the local database.
        let body = try body(orders: 50, products: Self.products + 500)
        let table = try ProductTable(path: databasePath)
        #expect(throws: CatalogError.self) { try OrderParsing.parseNaive(body, products: table) }
        do {
            _ = try OrderParsing.parse(body, index: OrderParsing.preload(table))
            Issue.record("an unknown product was not reported")
        } catch let error as CatalogError {
            guard case .unknownProduct(let code, _) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(Int(code.dropFirst())! >= Self.products)
            #expect(error.description.contains("not in the local database"))
        }
    }

    @Test func malformedJSONIsAClearError() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = try body()
        let cut = Array(body.prefix(body.count / 2))
        #expect(throws: CatalogError.self) { try OrderParsing.parse(cut, index: [:]) }
        #expect(throws: CatalogError.self) {
            try OrderParsing.parseNaive(cut, products: ProductTable(path: databasePath))
        }
    }
}
