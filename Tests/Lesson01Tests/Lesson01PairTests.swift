import Lesson01Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

/// The same job through the three variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (Swift Testing runs its tests on other threads, where
/// RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest runs each
/// test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
///
/// What Lesson01PairTests and Lesson01PairSlowTests (the slow tier) share; no tests of its own.
class Lesson01PairCase: XCTestCase {
    var test: TestServer!
    var server: FixtureServer { test.server }

    override func setUpWithError() throws {
        test = try TestServer(latency: 0.05)
    }

    override func tearDown() {
        test.stop()
    }

    func run(
        _ variant: Variant, items: Int = 6, width: Int = 2, cancel: Bool = true,
        slow: Double = 1.0
    ) -> VariantRun<AccountDetails> {
        var plan = AccountPlan(endpoint: test.endpoint)
        plan.itemCount = items
        plan.slowItem = cancel ? 1 : nil
        plan.slowItemLatencySeconds = slow
        var settings = AccountRun.Settings()
        settings.width = width
        settings.timeoutSeconds = 30
        return MainActor.assumeIsolated { AccountRun.perform(variant, plan: plan, settings: settings) }
    }

    /// The async run as free and as fast as the other (the lessons' one rule, `VariantComparison`).
    static func asFreeAndAsFast(_ queued: VariantRun<AccountDetails>, _ tasks: VariantRun<AccountDetails>) -> Bool {
        VariantComparison.isAsFreeAndAsFast(tasks, as: queued)
    }
}

final class Lesson01PairTests: Lesson01PairCase {
    func testWithoutCancelTheThreeVariantsShowTheSameRows() {
        let plain = run(.noThread, cancel: false)
        let queued = run(.threaded, cancel: false)
        let tasks = run(.async, cancel: false)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertNil(tasks.failure)
        XCTAssertEqual(plain.rows.count, 9, "login, user, welcome and 6 items")
        XCTAssertEqual(plain.rows, queued.rows)
        XCTAssertEqual(plain.rows, tasks.rows)
        XCTAssertEqual(tasks.rows[2].text, AccountPlan.welcomeText, "the async fetch handled the data: URL too")
        XCTAssertEqual(tasks.metric(.requestsServed), 8)
        XCTAssertEqual(
            queued.rows[1].text,
            "Aoi: \(AccountAPI.profile(for: "aoi").followers) followers, \(AccountAPI.profile(for: "aoi").posts) posts")
        XCTAssertEqual(queued.rows[2].text, AccountPlan.welcomeText, "the data: URL's plain URLResponse was handled")
        XCTAssertEqual(plain.metric(.requestsServed), 8)
        XCTAssertEqual(queued.metric(.requestsServed), 8)
    }

    func testLoginComesBeforeUserAndItemsEveryWay() throws {
        for variant in [Variant.noThread, .threaded, .async] {
            let order = run(variant, cancel: false).completionOrder
            let login = try XCTUnwrap(order.firstIndex(of: "login"), "\(variant)")
            for label in ["user"] + (1...6).map(AccountPlan.itemLabel) {
                XCTAssertLessThan(login, try XCTUnwrap(order.firstIndex(of: label)), "\(variant): \(order)")
            }
        }
    }

    func testTheCancelWorksOnlyWhenTheMainThreadIsFree() {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertNil(queued.failure)
        // Threaded: the tap arrives while item 1 is in flight; it finishes cancelled, no data.
        XCTAssertEqual(queued.cancelled, ["item 1"])
        XCTAssertEqual(queued.metric(.cancelledItemDelivered), 0)
        // No-thread: the tap waits for the main thread, which is busy until item 1 is in.
        XCTAssertEqual(plain.cancelled, [])
        XCTAssertEqual(plain.metric(.cancelledItemDelivered), 1)
        // Every other row is the same both ways.
        XCTAssertEqual(plain.rows.filter { $0.detail != "item 1" }, queued.rows.filter { $0.detail != "item 1" })
        XCTAssertLessThan(queued.time(.cancelTapHandledSeconds), 0.5 * plain.time(.cancelTapHandledSeconds))
        // Cancelling saved the slow item's wait: the threaded run does not include it.
        XCTAssertLessThan(queued.time(.totalSeconds), 0.5 * plain.time(.totalSeconds))
    }

    func testTheAsyncTapCancelsTheSlowItemsTaskInFlight() {
        let plain = run(.noThread)
        let tasks = run(.async)
        XCTAssertNil(tasks.failure)
        // The tap cancels that one item's Task; its request ends cancelled, with no data.
        XCTAssertEqual(tasks.cancelled, ["item 1"])
        XCTAssertEqual(tasks.metric(.cancelledItemDelivered), 0)
        XCTAssertEqual(plain.rows.filter { $0.detail != "item 1" }, tasks.rows.filter { $0.detail != "item 1" })
        XCTAssertLessThan(tasks.time(.cancelTapHandledSeconds), 0.5 * plain.time(.cancelTapHandledSeconds))
        XCTAssertLessThan(tasks.time(.totalSeconds), 0.5 * plain.time(.totalSeconds))
    }

    func testThreadedKeepsTheMainThreadFree() {
        // A slower link than the other tests, so that the ratio is about waiting, not about
        // how busy the machine (or the thread sanitizer) happens to be.
        server.knobs.latencySeconds = 0.15
        let (plain, queued) = firstPassing(
            passes: { $1.screen.maxStallSeconds < 0.25 * $0.screen.maxStallSeconds },
            { (run(.noThread, items: 8, cancel: false), run(.threaded, items: 8, cancel: false)) })
        XCTAssertGreaterThanOrEqual(plain.screen.maxStallSeconds, 0.8 * plain.time(.totalSeconds))
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds,
            "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(
            queued.screen.firstContentSeconds ?? .infinity, 0.25 * (plain.screen.firstContentSeconds ?? 0))
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
    }

    func testTheQueueOverlapsRequestsUpToItsWidth() {
        let serial = run(.threaded, items: 8, width: 1, cancel: false)
        let wide = run(.threaded, items: 8, width: 4, cancel: false)
        XCTAssertEqual(serial.maxConcurrent, 1)
        XCTAssertLessThanOrEqual(wide.maxConcurrent, 4)
        XCTAssertGreaterThanOrEqual(wide.maxConcurrent, 2)
        XCTAssertLessThan(wide.time(.totalSeconds), 0.75 * serial.time(.totalSeconds))
        XCTAssertEqual(serial.rows, wide.rows)
    }

    func testTheTaskGroupOverlapsRequestsUpToItsWidth() {
        let serial = run(.async, items: 8, width: 1, cancel: false)
        let wide = run(.async, items: 8, width: 4, cancel: false)
        XCTAssertEqual(serial.maxConcurrent, 1)
        XCTAssertLessThanOrEqual(wide.maxConcurrent, 4)
        XCTAssertGreaterThanOrEqual(wide.maxConcurrent, 2)
        XCTAssertLessThan(wide.time(.totalSeconds), 0.75 * serial.time(.totalSeconds))
        XCTAssertEqual(serial.rows, wide.rows)
    }

    /// Cancelling the async run's task (what the harness does when a run ends) while the login
    /// is at the server: its request is cancelled, nothing more is sent or shown, and the task
    /// ends at once rather than when the slow answer would have come.
    func testCancellingTheAsyncRunMidFlightEndsItPromptly() {
        let latency = 2.0
        server.knobs.latencySeconds = latency
        var plan = AccountPlan(endpoint: test.endpoint)
        plan.itemCount = 3
        plan.slowItem = nil
        let session = HTTPFetcher(timeout: 30).session
        defer { session.invalidateAndCancel() }
        let server = server  // the closure below captures the server, not the test case
        MainActor.assumeIsolated {
            let controller = AccountController(title: "cancel", output: .silent, labels: plan.labels)
            let tasks = AsyncAccount(width: 2, session: session)
            let ended = EndFlag()
            controller.startTask {
                await tasks.run(plan, controller: controller)
                ended.isSet = true
            }
            // The main loop must turn for the task to start; wait until the login is at the server.
            XCTAssertTrue(MainLoop.run(timeout: 10) { server.stats.requests >= 1 })
            let sent = server.stats.requests
            let clock = Stopwatch()
            controller.cancelTask()
            XCTAssertTrue(MainLoop.run(timeout: 10) { ended.isSet }, "the task did not end")
            XCTAssertLessThan(clock.elapsed, 0.25 * latency, "the cancelled login was waited for")
            XCTAssertEqual(controller.completionOrder, [], "nothing is shown after the cancel")
            XCTAssertEqual(server.stats.requests, sent, "nothing is sent after the cancel")
        }
    }

    func testAFailedLoginFailsEveryStepThatNeedsTheTokenEveryWay() {
        server.setFault(.status(500), forPathPrefix: "/api/login")
        for variant in [Variant.noThread, .threaded, .async] {
            let failed = run(variant, items: 3, cancel: false)
            XCTAssertEqual(failed.failure?.contains("HTTP 500"), true, "\(variant): \(failed.failure ?? "no failure")")
            XCTAssertEqual(failed.rows.count, 6, "\(variant): every step settles, none hangs")
            let needingToken = failed.rows.filter { $0.detail != "welcome" }
            XCTAssertTrue(needingToken.allSatisfy { $0.text.hasPrefix("failed") }, "\(variant): \(needingToken)")
            XCTAssertEqual(server.stats.requests(under: "/api/user"), 0, "\(variant): get-user sent without a token")
        }
    }

    func testADroppedItemFailsOnlyThatItem() {
        server.setFault(.drop, forPathPrefix: "/api/items/2")
        for variant in [Variant.noThread, .threaded, .async] {
            let run = run(variant, items: 3, cancel: false)
            for row in run.rows {
                XCTAssertEqual(row.text.hasPrefix("failed"), row.detail == "item 2", "\(variant): \(row)")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson01PairSlowTests: Lesson01PairCase {
    func testAsyncKeepsTheMainThreadAsFreeAsTheQueueAndTakesAsLong() throws {
        server.knobs.latencySeconds = 0.15
        let plain = run(.noThread, items: 8, cancel: false)
        // A moment of another process holding the main thread's core is not the code: retry.
        let (queued, tasks) = firstPassing(passes: Self.asFreeAndAsFast) {
            (run(.threaded, items: 8, cancel: false), run(.async, items: 8, cancel: false))
        }
        XCTAssertLessThanOrEqual(
            tasks.screen.maxStallSeconds, VariantComparison.freezeAllowed(against: queued.screen.maxStallSeconds),
            "async stall \(tasks.screen.maxStallSeconds) s vs threaded \(queued.screen.maxStallSeconds) s")
        XCTAssertLessThan(tasks.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds)
        XCTAssertLessThanOrEqual(
            tasks.time(.totalSeconds), VariantComparison.totalAllowed(against: queued.time(.totalSeconds)),
            "async total \(tasks.time(.totalSeconds)) s vs threaded \(queued.time(.totalSeconds)) s")
        XCTAssertEqual(tasks.maxConcurrent, 2, "the task group's width, like the queue's")
    }
}

/// Set by the async run's task when it has ended (main actor only: no lock needed).
@MainActor
final class EndFlag {
    var isSet = false
}

extension VariantRun<AccountDetails> {
    var rows: [TableRow] { details.rows }
    var completionOrder: [String] { details.completionOrder }
    var cancelled: [String] { details.cancelled }
    var maxConcurrent: Int { details.maxConcurrent }
    func metric(_ name: MetricName) -> Int? { count(name) }
    /// A seconds metric, or -1 when the run has none.
    func time(_ name: MetricName) -> Double { seconds(name) ?? -1 }
}

extension Lesson01PairSlowTests {
    func testAStalledItemEndsTheRunInBoundedTimeAndNothingIsSentAfterIt() throws {
        test.stop()
        test = try TestServer(latency: 0.05, timeout: 1)
        server.setFault(.stall, forPathPrefix: "/api/items/2")
        for variant in [Variant.noThread, .threaded, .async] {
            let itemsBefore = server.stats.requests(under: "/api/items/")
            let clock = Stopwatch()
            let failed = run(variant, items: 6, cancel: false)
            XCTAssertLessThan(
                clock.elapsed, 2 * 1 + 5, "\(variant): a 1 s timeout, and the run took \(clock.elapsed) s")
            let failure = failed.failure ?? "no failure"
            XCTAssertTrue(failure.hasPrefix("timed out after 1 s waiting for http://"), "\(variant): \(failure)")
            XCTAssertTrue(failure.contains("/api/items/2"), "\(variant): \(failure)")
            XCTAssertEqual(failed.rows.count, 9, "\(variant): every step settles, none hangs")
            if variant == .noThread {
                // The run stopped at the failure: items 3-6 were never sent, they ended cancelled.
                XCTAssertEqual(server.stats.requests(under: "/api/items/") - itemsBefore, 2)
                XCTAssertEqual(failed.cancelled, (3...6).map(AccountPlan.itemLabel))
            }
        }
    }
}
