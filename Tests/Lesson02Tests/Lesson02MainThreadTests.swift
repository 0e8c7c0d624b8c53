import Lesson02Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

// XCTest, because every test here runs lesson 02's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 02's runs on the main thread: the same feed through the three variants, side by side,
/// plus the run-loop thread's own claims (`Lesson02PairTests`), and what a cancel promises
/// (`Lesson02CancelTests`); their slow tiers. Every run is bounded by a timeout. XCTest runs each
/// test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
/// No tests of its own.
class Lesson02RunCase: XCTestCase {
    var test: TestServer!
    var server: FixtureServer { test.server }
    var endpoint: FixtureEndpoint { test.endpoint }

    override func setUpWithError() throws {
        // About 50 KB at 50 KB/s: each download takes about a second, chunk by chunk.
        test = try TestServer(latency: 0.05, bandwidth: 50_000, timeout: 15)
    }

    override func tearDown() {
        test.stop()
    }

    func run(
        _ kind: FeedRun.Kind, items: Int = FeedAPI.defaultItems, requestTimeout: Double = 15,
        cancelAfter: Double? = nil
    ) -> VariantRun<FeedDetails> {
        let bounded = FixtureEndpoint(
            baseURL: endpoint.baseURL, server: server, knobs: server.knobs, timeoutSeconds: requestTimeout)
        return MainActor.assumeIsolated {
            FeedRun.perform(kind, endpoint: bounded, items: items, timeout: 30, cancelAfter: cancelAfter)
        }
    }

    let threaded = FeedRun.Kind.threaded(.keepAlive, .streaming)

    /// The async run as free and as fast as the other (the lessons' one rule, `VariantComparison`).
    static func asFreeAndAsFast(_ streamed: VariantRun<FeedDetails>, _ awaited: VariantRun<FeedDetails>) -> Bool {
        VariantComparison.isAsFreeAndAsFast(awaited, as: streamed)
    }

    /// The seconds a spinning loop's thread wanted a core: all of its run. A loop that never
    /// sleeps is ready to run the whole time, however little of a core a busy machine gives it;
    /// so this, not its CPU time, is what a sleeping loop's CPU is weighed against (exercise 02's
    /// check weighs runnable time the same way).
    static func wanted(_ spinning: VariantRun<FeedDetails>) -> Double { spinning.seconds(.totalSeconds) ?? 0 }

    /// The cancels' runs: 120 items at 40 KB/s, about a second of chunks to cancel in the middle of.
    func cancelled(_ kind: FeedRun.Kind, at cancelAfter: Double?) -> VariantRun<FeedDetails> {
        server.knobs.bandwidthBytesPerSecond = 40_000
        return run(kind, items: 120, cancelAfter: cancelAfter)
    }

    let cancelKinds: [FeedRun.Kind] = [
        .noThread, .threaded(.keepAlive, .streaming), .threaded(.keepAlive, .afterDownload), .async,
    ]

    /// The no-thread variant's main thread is inside its blocking download when the tap comes:
    /// it is not asked to stop within 1 s, only to show and send nothing after it.
    func problems(_ run: VariantRun<FeedDetails>, _ kind: FeedRun.Kind) -> [String] {
        run.cancelProblems(blocking: kind == .noThread)
    }
}

final class Lesson02PairTests: Lesson02RunCase {
    func testTheThreeVariantsShowTheSameItems() {
        let plain = run(.noThread)
        let streamed = run(threaded)
        let awaited = run(.async)
        XCTAssertNil(plain.failure)
        XCTAssertNil(streamed.failure)
        XCTAssertNil(awaited.failure)
        let expected = FeedAPI.items(count: FeedAPI.defaultItems, baseURL: endpoint.baseURL.absoluteString)
        XCTAssertEqual(plain.items, expected)
        XCTAssertEqual(streamed.items, expected, "same items, same order")
        XCTAssertEqual(awaited.items, expected, "same items, same order")
    }

    func testThreadedShowsTheFirstItemEarlyAndKeepsTheMainThreadFree() throws {
        let (plain, streamed) = firstPassing(
            passes: { plain, streamed in
                streamed.screen.maxStallSeconds < 0.25 * plain.screen.maxStallSeconds
                    && (streamed.screen.firstRowsSeconds ?? .infinity) < 0.5 * (plain.screen.firstRowsSeconds ?? 0)
            }, { (run(.noThread), run(threaded)) })
        let plainFirst = try XCTUnwrap(plain.screen.firstRowsSeconds)
        let streamedFirst = try XCTUnwrap(streamed.screen.firstRowsSeconds)
        XCTAssertLessThan(
            streamedFirst, 0.5 * plainFirst, "first item: threaded \(streamedFirst) s, no-thread \(plainFirst) s")
        XCTAssertLessThan(
            streamed.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds,
            "stall: threaded \(streamed.screen.maxStallSeconds) s, no-thread \(plain.screen.maxStallSeconds) s")
        // No thread: nothing at all could be drawn before the end.
        XCTAssertGreaterThanOrEqual(plain.screen.maxStallSeconds, 0.8 * plainFirst)
    }

    /// The same fetch with a loop that sleeps and two that spin. Decided on what load cannot
    /// fake: trips round the loop (one for the sleeping loop, thousands for a spinning one), and
    /// the sleeping loop's CPU time (load never adds to it) against the time a spinning loop
    /// wanted a core (all of its run: load never takes from it). Up to three tries, for the
    /// median wake-up delay, which a busy moment can push up.
    func testTheKeepAliveLoopSleepsWhileTheOthersSpin() throws {
        let kinds = [threaded, .threaded(.noSource, .streaming), .threaded(.pastDeadline, .streaming)]
        let runs = firstPassing(passes: { Self.loopProblems($0).isEmpty }, { kinds.map { run($0) } })
        XCTAssertEqual(Self.loopProblems(runs), [])
    }

    /// What is wrong with a keep-alive run and two spinning ones of the same fetch (empty: nothing).
    static func loopProblems(_ runs: [VariantRun<FeedDetails>]) -> [String] {
        var problems: [String] = []
        for run in runs {
            // Each thread, spinning or not, stopped once the fetch was over (or `failure` says so).
            if let failure = run.failure { problems.append("\(run.name): \(failure)") }
            if run.items.count != FeedAPI.defaultItems { problems.append("\(run.name): \(run.items.count) items") }
        }
        guard let sleeping = runs[0].threadStats, let noSource = runs[1].threadStats,
            let pastDeadline = runs[2].threadStats
        else { return problems + ["a run without thread stats"] }
        // The sleeping loop is entered once; the spinning ones go round and round.
        if sleeping.loopIterations != 1 { problems.append("keep-alive: \(sleeping.loopIterations) trips round") }
        for (name, spinning) in [("no source", noSource), ("past deadline", pastDeadline)]
        where spinning.loopIterations <= 10 * sleeping.wakeUps {
            problems.append("\(name): only \(spinning.loopIterations) trips round")
        }
        // Sleeping costs little latency: a callback typically starts well within 20 ms of being
        // posted. (The median: on a busy machine a few wake-ups wait for a core.)
        if sleeping.medianDelaySeconds >= 0.020 {
            problems.append(
                "keep-alive: median delay \(sleeping.medianDelaySeconds) s (mean \(sleeping.meanDelaySeconds) s, "
                    + "max \(sleeping.maxDelaySeconds) s)")
        }
        if sleeping.blocksRun <= 5 { problems.append("keep-alive: \(sleeping.blocksRun) blocks run") }
        for spinning in runs.dropFirst() where sleeping.cpuSeconds >= 0.05 * wanted(spinning) {
            problems.append(
                "keep-alive used \(sleeping.cpuSeconds) s of CPU, not under 5% of the \(wanted(spinning)) s "
                    + "\(spinning.name) wanted a core (it got \(spinning.threadStats?.cpuSeconds ?? 0) s)")
        }
        return problems
    }

    func testStreamingShowsItemsBeforeTheDownloadEnds() throws {
        let streamed = run(threaded)
        let afterwards = run(.threaded(.keepAlive, .afterDownload))
        let firstItem = try XCTUnwrap(streamed.firstItemSeconds)
        let downloaded = try XCTUnwrap(streamed.downloadSeconds)
        XCTAssertLessThan(firstItem, 0.5 * downloaded, "first item at \(firstItem) s, last byte at \(downloaded) s")
        XCTAssertGreaterThan(streamed.metric(.itemsBeforeDownloadEnded) ?? 0, FeedAPI.defaultItems / 2)
        // Parse-after-download: not one item before the last byte.
        XCTAssertEqual(afterwards.metric(.itemsBeforeDownloadEnded), 0)
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(afterwards.firstItemSeconds), try XCTUnwrap(afterwards.downloadSeconds))
        XCTAssertEqual(streamed.items, afterwards.items)
    }

    func testAMalformedFeedIsAClearErrorEveryWay() {
        server.setFault(.malformed, forPathPrefix: "/feed.xml")
        for kind in [FeedRun.Kind.noThread, threaded, .threaded(.keepAlive, .afterDownload), .async] {
            let failed = run(kind, items: 40)
            XCTAssertEqual(
                failed.failure?.contains("not well-formed XML"), true, "\(kind.name): \(failed.failure ?? "no failure")"
            )
        }
    }

    func testHTTPErrorsAndDroppedConnectionsAreReportedNotHung() {
        for (fault, words) in [(Fault.status(500), "HTTP 500"), (.drop, "reset")] {
            server.setFault(fault, forPathPrefix: "/feed.xml")
            for kind in [FeedRun.Kind.noThread, threaded, .async] {
                let failed = run(kind, items: 40)
                XCTAssertEqual(
                    failed.failure?.contains(words), true, "\(kind.name), \(fault): \(failed.failure ?? "no failure")")
                if kind != .noThread {
                    XCTAssertTrue(failed.items.count < 40, "\(fault): a broken feed must not look complete")
                }
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson02PairSlowTests: Lesson02RunCase {
    func testAsyncKeepsTheMainThreadAsFreeAsTheRunLoopThreadWithoutAThread() throws {
        let plain = run(.noThread)
        let (streamed, awaited) = firstPassing(passes: Self.asFreeAndAsFast) { (run(threaded), run(.async)) }
        XCTAssertLessThanOrEqual(
            awaited.screen.maxStallSeconds, VariantComparison.freezeAllowed(against: streamed.screen.maxStallSeconds),
            "stall: async \(awaited.screen.maxStallSeconds) s, threaded \(streamed.screen.maxStallSeconds) s")
        XCTAssertLessThan(awaited.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds)
        let awaitedTotal = try XCTUnwrap(awaited.seconds(.totalSeconds))
        let streamedTotal = try XCTUnwrap(streamed.seconds(.totalSeconds))
        XCTAssertLessThanOrEqual(
            awaitedTotal, VariantComparison.totalAllowed(against: streamedTotal), "total: async vs threaded")
        // Items go on the Screen as they are parsed, long before the last byte.
        let firstItem = try XCTUnwrap(awaited.firstItemSeconds)
        XCTAssertLessThan(firstItem, 0.5 * (try XCTUnwrap(awaited.downloadSeconds)))
        XCTAssertLessThan(firstItem, 0.5 * (try XCTUnwrap(plain.firstItemSeconds)))
        XCTAssertGreaterThan(awaited.metric(.itemsBeforeDownloadEnded) ?? 0, FeedAPI.defaultItems / 2)
        // Every event was taken in on the main actor, i.e. on the main queue, which the run's
        // `MainLoop` serves here on the real main thread (XCTest runs each test there).
        let probe = try XCTUnwrap(awaited.probe)
        XCTAssertGreaterThan(probe.chunks, 5)
        XCTAssertEqual(probe.callbacks, probe.chunks + 2)
        XCTAssertEqual(probe.callbacksOffThread, 0)
        XCTAssertEqual(
            probe.bytes, FeedAPI.feed(items: FeedAPI.defaultItems, baseURL: endpoint.baseURL.absoluteString).utf8.count)
    }

    /// As for the loops above: the CPU the async run spent taking the events in (load never adds
    /// to it) against the time a spinning loop wanted a core for the same fetch (all of it).
    func testAsyncCostsNoMoreCPUWhileWaitingThanTheSleepingLoop() throws {
        let spinning = run(.threaded(.noSource, .streaming))
        let awaited = run(.async)
        let spent = try XCTUnwrap(awaited.threadStats).cpuSeconds
        XCTAssertGreaterThan(try XCTUnwrap(spinning.threadStats).loopIterations, 1000, "the loop did not spin")
        XCTAssertLessThan(
            spent, 0.05 * Self.wanted(spinning),
            "async \(spent) s of CPU, the spinning loop wanted \(Self.wanted(spinning)) s")
        // One trip round the `for await` loop per event: the task resumes only when there is work.
        XCTAssertEqual(try XCTUnwrap(awaited.threadStats).loopIterations, try XCTUnwrap(awaited.probe).callbacks)
    }

    func testEveryFetchCallbackRunsOnTheNetworkThread() throws {
        for kind in [threaded, .threaded(.keepAlive, .afterDownload), .threaded(.pastDeadline, .streaming)] {
            let result = run(kind)
            XCTAssertNil(result.failure, kind.name)
            let probe = try XCTUnwrap(result.probe)
            // One response, many chunks, one completion.
            XCTAssertGreaterThan(probe.chunks, 5, "\(kind.name): the body should come in many chunks")
            XCTAssertEqual(probe.callbacks, probe.chunks + 2, kind.name)
            XCTAssertEqual(probe.callbacksOffThread, 0, "\(kind.name): a callback ran off the network thread")
            XCTAssertEqual(
                probe.bytes,
                FeedAPI.feed(items: FeedAPI.defaultItems, baseURL: endpoint.baseURL.absoluteString).utf8.count)
        }
    }

    func testAStalledServerIsGivenUpWithinTwiceTheTimeoutEveryWay() throws {
        server.setFault(.stall, forPathPrefix: "/feed.xml")
        for kind in [FeedRun.Kind.noThread, threaded, .threaded(.noSource, .streaming), .async] {
            let clock = Stopwatch()
            let failed = run(kind, items: 40, requestTimeout: 1)
            XCTAssertNotNil(failed.failure, kind.name)
            XCTAssertLessThan(
                clock.elapsed, 2 * 1 + 5, "\(kind.name): a 1 s timeout, and the run took \(clock.elapsed) s")
        }
    }
}

extension Lesson02PairSlowTests {
    func testAStalledServerEndsInATimeoutNotAHang() throws {
        server.setFault(.stall, forPathPrefix: "/feed.xml")
        for kind in [FeedRun.Kind.noThread, threaded, .async] {
            let failed = run(kind, items: 40, requestTimeout: 1)
            XCTAssertEqual(
                failed.failure?.contains("timed out after 1 s"), true, "\(kind.name): \(failed.failure ?? "no failure")"
            )
        }
    }
}

/// What a cancel promises in lesson 02: the network thread's fetch and parse stop (the thread
/// itself is stopped once they have), the async stream ends and takes its request with it,
/// no item reaches the table after the tap, and a server that redirects to itself fails the
/// run with one clear line instead of trapping. Cancel points are random, from a printed
/// seed (`SAKUSAKU_SEED=N` reruns).
final class Lesson02CancelTests: Lesson02RunCase {
    /// Mid-download, with items parsed and on their way to main: the table stops where it was.
    func testACancelMidDownloadStopsTheTableWhereItWas() {
        for kind in cancelKinds where kind != .noThread {
            let run = cancelled(kind, at: 0.5)
            XCTAssertEqual(problems(run, kind), [], kind.name)
            XCTAssertNotNil(run.seconds(.cancelHandledSeconds), "\(kind.name): finished before the cancel")
            XCTAssertEqual(run.count(.rowsAfterCancel), 0, kind.name)
            XCTAssertLessThan(run.count(.itemsShown) ?? 0, 120, "\(kind.name): the whole feed after a cancel")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson02CancelSlowTests: Lesson02RunCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 02 random cancels", cancelKinds, within: 0...1.3, run: { cancelled($0, at: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 9 of the audit, for lesson 02's own delegate sessions: a server that redirects to
    /// itself fails the run with "too many redirects", and a cancel while a redirect is being
    /// decided does not trap (a trap ends the test process).
    func testARedirectLoopFailsInWordsAndCancelsSafely() throws {
        server.knobs.fault = .redirectLoop
        server.knobs.latencySeconds = 0
        for kind in [FeedRun.Kind.threaded(.keepAlive, .streaming), .async] {
            let run = cancelled(kind, at: nil)
            XCTAssertTrue(
                run.failure?.contains("too many redirects") == true, "\(kind.name): \(run.failure ?? "no failure")")
        }
        var random = SeededRandom.announced("lesson 02 cancels mid-redirect")
        for kind in [FeedRun.Kind.threaded(.keepAlive, .streaming), .async] {
            for _ in 0..<25 {
                _ = cancelled(kind, at: Double.random(in: 0...0.02, using: &random))
            }
        }
    }
}

extension VariantRun<FeedDetails> {
    var items: [FeedItem] { details.items }
    var probe: ThreadedFeed.Probe? { details.probe }
    var threadStats: RunLoopThread.Stats? { details.threadStats }
    var firstItemSeconds: Double? { details.firstItemSeconds }
    var downloadSeconds: Double? { details.downloadSeconds }
    func metric(_ name: MetricName) -> Int? { count(name) }
}
