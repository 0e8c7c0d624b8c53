import Lesson02Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

/// The same feed through the three variants, side by side, plus the run-loop thread's own claims.
/// XCTest, because these runs need the real main thread and its run loop (Swift Testing runs
/// its tests on other threads, where RunLoop.main's timers never fire); every run is bounded
/// by a timeout. XCTest runs each test on the main thread, so a test may step onto the main
/// actor with `assumeIsolated`.
///
/// What Lesson02PairTests and Lesson02PairSlowTests (the slow tier) share; no tests of its own.
class Lesson02PairCase: XCTestCase {
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

    func run(_ kind: FeedRun.Kind, items: Int = FeedAPI.defaultItems, requestTimeout: Double = 15)
        -> VariantRun<FeedDetails>
    {
        let bounded = FixtureEndpoint(
            baseURL: endpoint.baseURL, server: server, knobs: server.knobs, timeoutSeconds: requestTimeout)
        return MainActor.assumeIsolated { FeedRun.perform(kind, endpoint: bounded, items: items, timeout: 30) }
    }

    let threaded = FeedRun.Kind.threaded(.keepAlive, .streaming)

    /// The async run as free and as fast as the other (the lessons' one rule, `VariantComparison`).
    static func asFreeAndAsFast(_ streamed: VariantRun<FeedDetails>, _ awaited: VariantRun<FeedDetails>) -> Bool {
        VariantComparison.isAsFreeAndAsFast(awaited, as: streamed)
    }
}

final class Lesson02PairTests: Lesson02PairCase {
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
            passes: { $1.screen.maxStallSeconds < 0.25 * $0.screen.maxStallSeconds },
            { (run(.noThread), run(threaded)) })
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

    func testTheKeepAliveLoopSleepsWhileTheOthersSpin() throws {
        // How much CPU a spinning thread *gets* depends on how busy the machine is: on two cores
        // shared with other builds (or under TSan) one attempt can be starved. So up to three
        // attempts; a loop that really spins when it should sleep fails all three.
        var attempts: [String] = []
        for _ in 1...3 {
            let runs = [threaded, .threaded(.noSource, .streaming), .threaded(.pastDeadline, .streaming)].map {
                run($0)
            }
            for result in runs {
                // Each thread, spinning or not, stopped once the fetch was over (or `failure` says so).
                XCTAssertNil(result.failure, result.name)
                XCTAssertEqual(result.items.count, FeedAPI.defaultItems, result.name)
            }
            let sleeping = try XCTUnwrap(runs[0].threadStats)
            let noSource = try XCTUnwrap(runs[1].threadStats)
            let pastDeadline = try XCTUnwrap(runs[2].threadStats)

            // The sleeping loop is entered once; the spinning ones go round and round.
            XCTAssertEqual(sleeping.loopIterations, 1)
            XCTAssertGreaterThan(noSource.loopIterations, 10 * sleeping.wakeUps)
            XCTAssertGreaterThan(pastDeadline.loopIterations, 10 * sleeping.wakeUps)
            // Sleeping costs little latency: a callback typically starts well within 20 ms of being
            // posted. (The median: on a busy machine a few wake-ups wait for a core.)
            XCTAssertLessThan(
                sleeping.medianDelaySeconds, 0.020,
                "median delay \(sleeping.medianDelaySeconds) s (mean \(sleeping.meanDelaySeconds) s, max \(sleeping.maxDelaySeconds) s)"
            )
            XCTAssertGreaterThan(sleeping.blocksRun, 5)

            attempts.append(
                "keep-alive \(sleeping.cpuSeconds) s, no source \(noSource.cpuSeconds) s, past deadline \(pastDeadline.cpuSeconds) s"
            )
            if sleeping.cpuSeconds < 0.05 * noSource.cpuSeconds && sleeping.cpuSeconds < 0.05 * pastDeadline.cpuSeconds
            {
                return
            }
        }
        XCTFail(
            "the keep-alive loop should use under 5% of a spinning loop's CPU for the same fetch:\n"
                + attempts.joined(separator: "\n"))
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
final class Lesson02PairSlowTests: Lesson02PairCase {
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

    func testAsyncCostsNoMoreCPUWhileWaitingThanTheSleepingLoop() throws {
        // As for the loops below: a spinning thread's share of CPU depends on the machine's load.
        let (spinning, awaited) = firstPassing(
            passes: { spinning, awaited in
                (awaited.threadStats?.cpuSeconds ?? 1) < 0.05 * (spinning.threadStats?.cpuSeconds ?? 0)
            }, { (run(.threaded(.noSource, .streaming)), run(.async)) })
        let spent = try XCTUnwrap(awaited.threadStats).cpuSeconds
        let spun = try XCTUnwrap(spinning.threadStats).cpuSeconds
        XCTAssertLessThan(spent, 0.05 * spun, "async \(spent) s of CPU, the spinning loop \(spun) s")
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

extension VariantRun<FeedDetails> {
    var items: [FeedItem] { details.items }
    var probe: ThreadedFeed.Probe? { details.probe }
    var threadStats: RunLoopThread.Stats? { details.threadStats }
    var firstItemSeconds: Double? { details.firstItemSeconds }
    var downloadSeconds: Double? { details.downloadSeconds }
    func metric(_ name: MetricName) -> Int? { count(name) }
}
