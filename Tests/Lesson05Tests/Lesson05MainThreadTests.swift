import Lesson05Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

// XCTest, because every test here runs lesson 05's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 05's runs on the main thread: the same three launches through the three variants,
/// side by side (`Lesson05PairTests`), and what a cancel promises (`Lesson05CancelTests`); their
/// slow tiers. Every launch is bounded. XCTest runs each test on the main thread, so a test may
/// step onto the main actor with `assumeIsolated`. No tests of its own.
class Lesson05RunCase: XCTestCase {
    var server: TestServer!
    var setup: ShopSetup!
    /// The server's latency for every request.
    class var latency: Double { 0.4 }

    override func setUpWithError() throws {
        server = try TestServer(latency: Self.latency)
        server.server.knobs.maxAgeSeconds = 300
        setup = try ShopSetup.prepare(endpoint: server.endpoint, products: 1_000, orders: 600)
        setup.launchTimeoutSeconds = 30
    }

    override func tearDown() {
        server.stop()
        setup.scratch.tearDown()
    }

    func run(_ variant: Variant, setup: ShopSetup? = nil, cancelAfter: Double? = nil) -> VariantRun<ShopDetails> {
        let setup = setup ?? self.setup!
        return MainActor.assumeIsolated { ShopRun.perform(variant, setup: setup, cancelAfter: cancelAfter) }
    }

    /// What is wrong with the async launches against the threaded and no-thread ones (empty:
    /// nothing). The async variant keeps the main thread as free as the queues (within 2x, with
    /// a floor so that two near-zero figures cannot flake), far freer than the no-thread one,
    /// and takes about as long as the queues (within 1.2x plus a little).
    func asyncProblems(
        plain: VariantRun<ShopDetails>, queued: VariantRun<ShopDetails>, tasks: VariantRun<ShopDetails>
    ) -> [String] {
        var problems: [String] = []
        let stall = { (run: VariantRun<ShopDetails>) in run.seconds(.mainThreadMaxStallSeconds) ?? .infinity }
        let total = { (run: VariantRun<ShopDetails>) in run.seconds(.totalSeconds) ?? .infinity }
        if stall(tasks) >= VariantComparison.freezeAllowed(against: stall(queued)) {
            problems.append("async stall \(stall(tasks)) s, threaded \(stall(queued)) s")
        }
        if stall(tasks) >= 0.25 * stall(plain) {
            problems.append("async stall \(stall(tasks)) s, no-thread \(stall(plain)) s")
        }
        if total(tasks) >= VariantComparison.totalAllowed(against: total(queued)) {
            problems.append("async took \(total(tasks)) s, threaded \(total(queued)) s")
        }
        let loading = tasks.details.first?.screen?.firstContentSeconds ?? .infinity
        if loading >= 0.25 * (plain.details.first?.screen?.firstContentSeconds ?? 0) {
            problems.append("async showed 'loading...' only after \(loading) s")
        }
        return problems
    }
}

final class Lesson05PairTests: Lesson05RunCase {
    func testAllThreeVariantsShowTheSameOrdersOnEveryLaunch() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        let tasks = run(.async)
        for variant in [plain, queued, tasks] {
            XCTAssertNil(variant.failure, variant.name)
            XCTAssertEqual(variant.details.launches.count, 3, variant.name)
        }
        let expected = CatalogAPI.orders(count: 600, products: 1_000)
        for launch in plain.details.launches + queued.details.launches + tasks.details.launches {
            let orders = try XCTUnwrap(launch.parsed?.orders, launch.name)
            XCTAssertEqual(orders.map(\.id), expected.map(\.id), launch.name)
            XCTAssertEqual(orders.map(\.product.code), expected.map(\.productCode), launch.name)
            XCTAssertEqual(
                launch.rows, plain.details.launches[0].rows, "\(launch.name): the Screen shows the same rows")
            XCTAssertEqual(launch.parsed?.naiveQueries, 600, "\(launch.name): one query per order the naive way")
            XCTAssertEqual(launch.preloaded?.queries, 1, "\(launch.name): one query to pre-load")
        }
    }

    func testRelaunchesMakeNoFullDownload() {
        for variant in [Variant.noThread, .threaded, .async] {
            server.server.resetStats()
            let launches = run(variant).details
            XCTAssertEqual(launches.launches.map(\.source), [.downloaded, .fresh, .revalidated], "\(variant)")
            XCTAssertEqual(launches.launches.map(\.requests), [1, 0, 1], "\(variant): requests the server saw")
            XCTAssertEqual(launches.fullDownloadsAfterFirst, 0)
            XCTAssertEqual(server.server.stats.notModified, 1)
            let bytes = launches.launches.map { $0.wireBytes ?? -1 }
            XCTAssertEqual(bytes[1], 0)
            XCTAssertLessThan(bytes[2] * 10, bytes[0], "\(variant): a 304 against the first download, \(bytes)")
        }
    }

    func testNoThreadFreezesTheScreenForItsWholeFirstLaunch() throws {
        let first = try XCTUnwrap(run(.noThread).details.first)
        let stall = try XCTUnwrap(first.screen?.maxStallSeconds)
        XCTAssertGreaterThanOrEqual(stall, 0.8 * first.seconds, "max stall \(stall) s of a \(first.seconds) s launch")
        XCTAssertGreaterThanOrEqual(stall, Self.latency, "the fetch alone waits one latency on main")
    }

    func testAFailedPreloadCancelsTheDownloadInFlight() throws {
        // The orders never come (30 s request timeout) and the database has no product table:
        // the pre-load fails at once, and a launch that waited for the download would take 30 s.
        server.server.setFault(.stall, forPathPrefix: "/orders")
        var broken = try XCTUnwrap(setup)
        broken.endpoint = FixtureEndpoint(
            baseURL: server.endpoint.baseURL, server: server.server, knobs: server.server.knobs, timeoutSeconds: 30)
        broken.databasePath = setup.scratch.file("empty.sqlite")
        for variant in [Variant.threaded, .async] {
            let failed = run(variant, setup: broken)
            XCTAssertTrue(failed.failure?.contains("no such table") == true, "\(variant): \(failed.failure ?? "none")")
            let total = try XCTUnwrap(failed.seconds(.totalSeconds))
            XCTAssertLessThan(total, 30 / 4, "\(variant) waited \(total) s for a download it should have cancelled")
        }
    }

    func testAFailingServerIsReportedNotHung() {
        server.server.setFault(.status(500), forPathPrefix: "/orders")
        for variant in [Variant.noThread, .threaded, .async] {
            let run = run(variant)
            XCTAssertEqual(run.failure?.contains("HTTP 500"), true, "\(variant): \(run.failure ?? "no failure")")
            XCTAssertEqual(run.details.launches.count, 1, "no relaunch after a failed launch")
            XCTAssertTrue(run.details.launches[0].rows.isEmpty)
        }
    }

    func testAnUnknownProductIsReportedNotCrashed() throws {
        // The API names 1,500 products; the local database holds 1,000.
        var wider = try XCTUnwrap(setup)
        wider.products = 1_500
        for variant in [Variant.noThread, .threaded, .async] {
            let run = run(variant, setup: wider)
            XCTAssertEqual(
                run.failure?.contains("not in the local database"), true, "\(variant): \(run.failure ?? "none")")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson05PairSlowTests: Lesson05RunCase {
    func testThreadedShowsLoadingAtOnceAndKeepsTheMainThreadFree() throws {
        // A long injected latency, so that the no-thread freeze dwarfs any scheduling noise
        // of a busy machine (2 cores shared with other builds) in the threaded one.
        server.server.knobs.latencySeconds = 1.5
        let plain = run(.noThread).details
        let queued = run(.threaded).details
        let plainStall = plain.launches.compactMap(\.screen?.maxStallSeconds).max() ?? 0
        let queuedStall = queued.launches.compactMap(\.screen?.maxStallSeconds).max() ?? .infinity
        XCTAssertGreaterThanOrEqual(plainStall, 1.5, "the no-thread fetch waits the whole latency on main")
        XCTAssertLessThan(queuedStall, 0.5 * plainStall, "threaded stall \(queuedStall) s vs no-thread \(plainStall) s")
        let plainFirst = try XCTUnwrap(plain.first?.screen?.firstContentSeconds)
        let queuedFirst = try XCTUnwrap(queued.first?.screen?.firstContentSeconds)
        XCTAssertLessThan(
            queuedFirst, 0.25 * plainFirst, "'loading...' long before the no-thread Screen shows anything")
    }

    func testAsyncKeepsTheMainThreadAsFreeAsThreadedAndTakesAsLong() throws {
        let plain = run(.noThread)
        XCTAssertNil(plain.failure)
        // A busy 2-core machine can hold the main thread for a moment: up to three tries.
        let fine = { (runs: (VariantRun<ShopDetails>, VariantRun<ShopDetails>)) in
            self.asyncProblems(plain: plain, queued: runs.0, tasks: runs.1).isEmpty
        }
        let (queued, tasks) = firstPassing(passes: fine) { (run(.threaded), run(.async)) }
        XCTAssertNil(tasks.failure)
        XCTAssertEqual(asyncProblems(plain: plain, queued: queued, tasks: tasks), [])
    }

    func testASilentServerEndsTheLaunchAfterOneTimeoutAndKeepsTheScreenDrawing() throws {
        // The orders never come; with a 1 s timeout each variant must give up after about one
        // timeout (not relaunch, not wait again), and threaded and async keep drawing meanwhile.
        server.server.setFault(.stall, forPathPrefix: "/orders")
        let timeout = 1.0
        var quick = try XCTUnwrap(setup)
        quick.endpoint = FixtureEndpoint(
            baseURL: server.endpoint.baseURL, server: server.server, knobs: server.server.knobs,
            timeoutSeconds: timeout)
        for variant in [Variant.noThread, .threaded, .async] {
            let failed = run(variant, setup: quick)
            let message = failed.failure ?? "no failure"
            XCTAssertTrue(message.contains("timed out after 1 s waiting for http://"), "\(variant): \(message)")
            XCTAssertEqual(failed.details.launches.count, 1, "\(variant): relaunched after a failed launch")
            let total = try XCTUnwrap(failed.seconds(.totalSeconds))
            XCTAssertLessThan(total, 2 * timeout + Self.latency + 5, "\(variant) took \(total) s to give up")
            if variant != .noThread {
                XCTAssertLessThan(
                    failed.screen.maxStallSeconds, 0.5 * timeout, "\(variant): the main thread froze while failing")
            }
        }
    }
}

/// What a cancel promises in lesson 05: once the user cancels the launch, no request is sent,
/// no query run for it, and no order shown, even when the orders were downloaded or parsed a
/// moment before the tap. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N`).
///
/// What Lesson05CancelTests and Lesson05CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson05CancelCase: Lesson05RunCase {
    override class var latency: Double { 0.2 }

    /// The no-thread variant sees the tap only between its blocking steps: it is asked to show
    /// and send nothing after it, not to stop within 1 s.
    func problems(_ run: VariantRun<ShopDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread)
    }
}

final class Lesson05CancelTests: Lesson05CancelCase {
    /// Item 4 of the audit: the async launch parsed the orders and showed 12 rows after the
    /// cancel. Cancels just after the orders' answer is in (the parse under way or done):
    /// nothing is shown.
    func testACancelWithTheOrdersInHandShowsNothing() {
        for variant in [Variant.threaded, .async] {
            for offset in [0.0, 0.02] {
                let run = run(variant, cancelAfter: Self.latency + offset)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at +\(offset) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson05CancelSlowTests: Lesson05CancelCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 05 random cancels", Variant.allCases, within: 0...0.5, run: { run($0, cancelAfter: $1) },
            problems: { run, variant in
                // A cancelled launch ends the variant: no relaunch sends anything after it.
                let relaunched = run.seconds(.cancelHandledSeconds) != nil && run.details.launches.count != 1
                return problems(run, variant) + (relaunched ? ["\(variant): launched again after a cancel"] : [])
            })
        XCTAssertEqual(found, [])
    }
}
