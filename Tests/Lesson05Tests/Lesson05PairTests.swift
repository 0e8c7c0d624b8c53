import Foundation
import XCTest
@testable import lesson05
import WorkshopCore

/// The same three launches through both variants, side by side. XCTest, because these runs
/// need the real main thread and its run loop (see linux-facts.md); every launch is bounded.
final class Lesson05PairTests: XCTestCase {
    private var server: FixtureServer!
    private var setup: ShopSetup!
    static let latency = 0.4

    override func setUpWithError() throws {
        server = FixtureServer(knobs: ServerKnobs(latencySeconds: Self.latency, maxAgeSeconds: 300))
        let endpoint = FixtureEndpoint(baseURL: try server.start(), server: server, knobs: server.knobs)
        setup = try ShopSetup.prepare(endpoint: endpoint, products: 1_000, orders: 600)
        setup.launchTimeoutSeconds = 30
    }

    override func tearDown() {
        server.stop()
        setup.removeFiles()
    }

    func testBothVariantsShowTheSameOrdersOnEveryLaunch() throws {
        let plain = ShopRun.perform(.noThread, setup: setup)
        let queued = ShopRun.perform(.threaded, setup: setup)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(plain.launches.count, 3)
        XCTAssertEqual(queued.launches.count, 3)
        let expected = CatalogAPI.orders(count: 600, products: 1_000)
        for run in plain.launches + queued.launches {
            let orders = try XCTUnwrap(run.parsed?.orders, run.name)
            XCTAssertEqual(orders.map(\.id), expected.map(\.id), run.name)
            XCTAssertEqual(orders.map(\.product.code), expected.map(\.productCode), run.name)
            XCTAssertEqual(run.rows, plain.launches[0].rows, "\(run.name): the Screen shows the same rows")
            XCTAssertEqual(run.parsed?.naiveQueries, 600, "\(run.name): one query per order the naive way")
            XCTAssertEqual(run.preloaded?.queries, 1, "\(run.name): one query to pre-load")
        }
    }

    func testRelaunchesMakeNoFullDownload() {
        for variant in [Variant.noThread, .threaded] {
            server.resetStats()
            let run = ShopRun.perform(variant, setup: setup)
            XCTAssertEqual(run.launches.map(\.source), [.downloaded, .fresh, .revalidated], "\(variant)")
            XCTAssertEqual(run.launches.map(\.requests), [1, 0, 1], "\(variant): requests the server saw")
            XCTAssertEqual(run.fullDownloadsAfterFirst, 0)
            XCTAssertEqual(server.stats.notModified, 1)
            let bytes = run.launches.map { $0.wireBytes ?? -1 }
            XCTAssertEqual(bytes[1], 0)
            XCTAssertLessThan(bytes[2] * 10, bytes[0], "\(variant): a 304 against the first download, \(bytes)")
        }
    }

    func testNoThreadFreezesTheScreenForItsWholeFirstLaunch() throws {
        let first = try XCTUnwrap(ShopRun.perform(.noThread, setup: setup).first)
        XCTAssertGreaterThanOrEqual(first.screen.maxStallSeconds, 0.8 * first.seconds,
                                    "max stall \(first.screen.maxStallSeconds) s of a \(first.seconds) s launch")
        XCTAssertGreaterThanOrEqual(first.screen.maxStallSeconds, Self.latency, "the fetch alone waits one latency on main")
    }

    func testThreadedShowsLoadingAtOnceAndKeepsTheMainThreadFree() throws {
        // A long injected latency, so that the no-thread freeze dwarfs any scheduling noise
        // of a busy machine (2 cores shared with other builds) in the threaded one.
        server.knobs.latencySeconds = 1.5
        let plain = ShopRun.perform(.noThread, setup: setup)
        let queued = ShopRun.perform(.threaded, setup: setup)
        let plainStall = plain.launches.map(\.screen.maxStallSeconds).max() ?? 0
        let queuedStall = queued.launches.map(\.screen.maxStallSeconds).max() ?? .infinity
        XCTAssertGreaterThanOrEqual(plainStall, 1.5, "the no-thread fetch waits the whole latency on main")
        XCTAssertLessThan(queuedStall, 0.5 * plainStall, "threaded stall \(queuedStall) s vs no-thread \(plainStall) s")
        let plainFirst = try XCTUnwrap(plain.first?.screen.firstContentSeconds)
        let queuedFirst = try XCTUnwrap(queued.first?.screen.firstContentSeconds)
        XCTAssertLessThan(queuedFirst, 0.25 * plainFirst, "'loading...' long before the no-thread Screen shows anything")
    }

    func testAFailingServerIsReportedNotHung() {
        server.setFault(.status(500), forPathPrefix: "/orders")
        for variant in [Variant.noThread, .threaded] {
            let run = ShopRun.perform(variant, setup: setup)
            XCTAssertEqual(run.failure?.contains("HTTP 500"), true, "\(variant): \(run.failure ?? "no failure")")
            XCTAssertEqual(run.launches.count, 1, "no relaunch after a failed launch")
            XCTAssertTrue(run.launches[0].rows.isEmpty)
        }
    }

    func testAnUnknownProductIsReportedNotCrashed() throws {
        // The API names 1,500 products; the local database holds 1,000.
        var wider = setup!
        wider.products = 1_500
        wider.databasePath = setup.databasePath
        for variant in [Variant.noThread, .threaded] {
            let run = ShopRun.perform(variant, setup: wider)
            XCTAssertEqual(run.failure?.contains("not in the local database"), true, "\(variant): \(run.failure ?? "none")")
        }
    }
}
