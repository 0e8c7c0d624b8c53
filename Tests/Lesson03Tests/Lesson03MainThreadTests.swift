import Foundation
import Lesson03Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

// XCTest, because every test here runs lesson 03's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 03's runs on the main thread: the same job through the three variants, side by side
/// (`Lesson03PairTests`), what a cancel promises (`Lesson03CancelTests`), the timeline picture
/// of a real run; their slow tiers. Every run is bounded by a timeout. XCTest runs each test on
/// the main thread, so a test may step onto the main actor with `assumeIsolated`. No tests of
/// its own.
class Lesson03RunCase: XCTestCase {
    var server: TestServer!
    let variants: [Variant] = [.noThread, .threaded, .async]

    override func setUpWithError() throws {
        server = try TestServer(latency: 0.05)
    }

    override func tearDown() {
        server.stop()
    }

    func run(
        _ variant: Variant, rows: Int = 10, imageWidth: Int = 1, visibleRows: Int? = nil, scroll: [Int] = [],
        cache: Bool = true, cancelAfter: Double? = nil, timeout: Double = 30,
        prepare: @escaping @MainActor @Sendable (TimelineController) -> Void = { _ in }
    ) -> VariantRun<TimelineDetails> {
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.visibleRows = visibleRows
        settings.scrollMoves = scroll
        settings.cache = cache
        settings.cancelAfter = cancelAfter
        settings.timeoutSeconds = timeout
        let endpoint = server.endpoint
        return MainActor.assumeIsolated {
            TimelineRun.perform(variant, endpoint: endpoint, settings: settings, prepare: prepare)
        }
    }

    /// The cancels' runs: 12 rows, cancelled `cancelAfter` seconds in (nil: not at all).
    func cancelled(_ variant: Variant, at cancelAfter: Double?, timeout: Double = 30) -> VariantRun<TimelineDetails> {
        run(variant, rows: 12, cancelAfter: cancelAfter, timeout: timeout)
    }

    /// The no-thread variant sees the tap only between two blocking fetches: no promptness asked.
    func problems(_ run: VariantRun<TimelineDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread)
    }

    /// The controller's own spans (on main in every variant) left out: where the job ran.
    static func jobLanes(_ run: VariantRun<TimelineDetails>) -> Set<String> {
        run.lanes(excluding: ["reload", "set icon", "scroll"])
    }
}

final class Lesson03PairTests: Lesson03RunCase {
    func testEveryVariantEndsWithTheSameTable() throws {
        let runs = variants.map { run($0) }
        for run in runs { XCTAssertNil(run.failure, run.name) }
        XCTAssertEqual(runs[0].details.rows.count, 10)
        for run in runs.dropFirst() {
            XCTAssertEqual(runs[0].details.rows, run.details.rows, "\(run.name): same texts, names and icon bytes")
        }
        for (index, row) in runs[2].details.rows.enumerated() {
            XCTAssertEqual(row.icon, FixtureAPI.icon(for: row.detail), "row \(index + 1)")
        }
        // One timeline request and one per icon, every way.
        XCTAssertEqual(runs.map { $0.count(.requestsServed) }, [11, 11, 11])
    }

    func testNoThreadFreezesTheScreenForMostOfItsRun() throws {
        let plain = run(.noThread)
        let total = try XCTUnwrap(plain.seconds(.totalSeconds))
        XCTAssertGreaterThanOrEqual(
            plain.screen.maxStallSeconds, 0.8 * total,
            "max stall \(plain.screen.maxStallSeconds) s of a \(total) s run")
        // Nothing could be drawn before the end.
        XCTAssertGreaterThanOrEqual(plain.screen.firstContentSeconds ?? 0, 0.8 * total)
    }

    /// Where the fetches ran decides first (one recorded on "main" ran there, however busy the
    /// machine); then the Screen's figures, on 0.1 s a request for 21 requests: two seconds of
    /// waiting on the no-thread main thread, which a busy machine's hiccups (or the thread
    /// sanitizer's slower main-thread work) in the threaded run stay small next to. A retry for a
    /// run that another program held up.
    func testThreadedKeepsTheMainThreadFree() {
        server.server.knobs.latencySeconds = 0.1
        let (plain, queued) = firstPassing(
            passes: { $1.keptMainFarFreer(than: $0) },
            { (run(.noThread, rows: 20), run(.threaded, rows: 20)) })
        XCTAssertEqual(Self.jobLanes(plain), ["main"], "no-thread fetches on the main thread")
        XCTAssertFalse(Self.jobLanes(queued).contains("main"), "threaded fetched on main: \(Self.jobLanes(queued))")
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds,
            "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(
            queued.screen.firstContentSeconds ?? .infinity, 0.25 * (plain.screen.firstContentSeconds ?? 0),
            "the threaded Screen shows 'loading...' long before the no-thread one shows anything")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
    }

    func testIconsStayOnTheirRowsWhenRowsAreRedrawnInFlight() {
        for variant in [Variant.threaded, .async] {
            // Right after the rows appear (and before any icon can arrive), reload the table
            // twice: every cell now shows another row than when the fetches were queued.
            let redrawn = run(variant, rows: 8) { controller in
                controller.afterTimelineShown = {
                    let table = controller.screen.table
                    table.reloadData(count: table.rows.count) { table.rows[$0] }
                    table.reloadData(count: table.rows.count) { table.rows[$0] }
                }
            }
            XCTAssertNil(redrawn.failure)
            XCTAssertEqual(redrawn.details.rows.count, 8)
            for (index, row) in redrawn.details.rows.enumerated() {
                XCTAssertEqual(row.icon, FixtureAPI.icon(for: row.detail), "\(variant): row \(index + 1)'s icon")
            }
            // The rows redrawn while their icons were in flight were not asked for twice.
            XCTAssertEqual(redrawn.count(.iconRequests), 8, "\(variant)")
        }
    }

    func testOnlyTheRowsOnTheScreenAreFetched() {
        // 20 rows, 8 on the screen, one scroll down by 8: rows 1-16 are seen, 17-20 never.
        for variant in variants {
            let scrolled = run(variant, rows: 20, visibleRows: 8, scroll: [8])
            XCTAssertNil(scrolled.failure, "\(variant)")
            XCTAssertEqual(scrolled.count(.iconRequests), 16, "\(variant)")
            XCTAssertEqual(scrolled.count(.requestsServed), 17, "\(variant): the timeline and 16 icons")
            for (index, row) in scrolled.details.rows.enumerated() {
                XCTAssertEqual(
                    row.icon, index < 16 ? FixtureAPI.icon(for: row.detail) : nil, "\(variant): row \(index + 1)")
            }
        }
    }

    func testAFailingTimelineIsReportedNotHung() {
        server.server.setFault(.status(500), forPathPrefix: "/timeline")
        for variant in variants {
            let failed = run(variant)
            XCTAssertEqual(failed.failure?.contains("HTTP 500"), true, "\(variant): \(failed.failure ?? "no failure")")
            XCTAssertTrue(failed.details.rows.isEmpty)
            XCTAssertFalse(failed.gotStarted)
        }
    }

    func testAFailingIconLeavesItsRowBlankAndTheRestLoads() {
        server.server.setFault(.drop, forPathPrefix: "/icons/aoi")
        for variant in [Variant.threaded, .async] {
            let loaded = run(variant, rows: 6)
            XCTAssertNil(loaded.failure)
            for row in loaded.details.rows {
                XCTAssertEqual(row.icon == nil, row.detail == "aoi", "\(variant): row of \(row.detail)")
            }
            XCTAssertGreaterThan(loaded.count(.iconFailures) ?? 0, 0)
        }
    }

    /// A run that runs out of time is cancelled by the harness: the async variant's icon
    /// fetches, still waiting on a slow server, end at once instead of when the answers come.
    func testAnAsyncRunThatGivesUpLeavesNoFetchBehind() throws {
        // Every request waits 2 s: the timeline is in at about 2 s, the run gives up at 2.5 s
        // with four icon fetches in flight that the server would answer at about 4 s.
        let latency = 2.0
        let slow = FixtureEndpoint(
            baseURL: server.endpoint.baseURL, server: server.server, knobs: server.server.knobs, timeoutSeconds: 30,
            queryItems: [URLQueryItem(name: "latency", value: "\(latency)")])
        var settings = TimelineRun.Settings()
        settings.rows = 4
        settings.imageWidth = 4
        settings.timeoutSeconds = 2.5
        let (gaveUp, iconSpans) = MainActor.assumeIsolated {
            let run = TimelineRun.perform(.async, endpoint: slow, settings: settings)
            // Let the cancelled fetches report (bounded: each span is recorded when its fetch ends).
            let iconSpans = { run.trace.recorded.filter { $0.name.hasPrefix("fetch icon") } }
            _ = MainLoop.run(timeout: 10) { iconSpans().count == 4 }
            return (run, iconSpans())
        }
        XCTAssertEqual(gaveUp.failure?.hasPrefix("gave up after 2.5 s"), true, gaveUp.failure ?? "no failure")
        XCTAssertEqual(iconSpans.count, 4, "every icon fetch ended")
        let cancelledAt = gaveUp.traceOffset + (gaveUp.seconds(.totalSeconds) ?? 0)
        for span in iconSpans {
            XCTAssertLessThan(
                span.end - cancelledAt, 0.25 * latency,
                "\(span.name) ended \(span.end - cancelledAt) s after the cancel")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03PairSlowTests: Lesson03RunCase {
    /// Within 2x of the queues' worst freeze (with a 50 ms floor, so that two near-zero
    /// figures cannot flake), far below the no-thread one, and no slower overall.
    func testAsyncKeepsTheMainThreadAsFreeAsTheQueuesInTheSameTime() throws {
        let plain = run(.noThread, rows: 20)
        typealias Pair = (queued: VariantRun<TimelineDetails>, awaited: VariantRun<TimelineDetails>)
        func stallAllowed(_ pair: Pair) -> Double {
            VariantComparison.freezeAllowed(against: pair.queued.screen.maxStallSeconds)
        }
        func totalAllowed(_ pair: Pair) -> Double {
            VariantComparison.totalAllowed(against: (pair.queued.seconds(.totalSeconds) ?? 0))
        }
        let passes = { (pair: Pair) in
            pair.awaited.screen.maxStallSeconds <= stallAllowed(pair)
                && (pair.awaited.seconds(.totalSeconds) ?? .infinity) <= totalAllowed(pair)
        }
        let pair = firstPassing(passes: passes) { (queued: run(.threaded, rows: 20), awaited: run(.async, rows: 20)) }
        let stall = pair.awaited.screen.maxStallSeconds
        XCTAssertLessThanOrEqual(
            stall, stallAllowed(pair), "async stall \(stall) s vs threaded \(pair.queued.screen.maxStallSeconds) s")
        XCTAssertLessThan(
            stall, 0.25 * plain.screen.maxStallSeconds, "no-thread stall \(plain.screen.maxStallSeconds) s")
        let total = try XCTUnwrap(pair.awaited.seconds(.totalSeconds))
        XCTAssertLessThanOrEqual(
            total, totalAllowed(pair),
            "async total \(total) s vs threaded \(pair.queued.seconds(.totalSeconds) ?? 0) s")
        XCTAssertLessThan(
            pair.awaited.screen.firstContentSeconds ?? .infinity, 0.25 * (plain.screen.firstContentSeconds ?? 0))
    }

    func testFourImageQueuesOrAGroupOfFourHalveTheIconsPhase() throws {
        // A longer link (150 ms) so that waiting, not CPU, dominates the icons phase.
        server.server.knobs.latencySeconds = 0.15
        for variant in [Variant.threaded, .async] {
            let serial = run(variant, rows: 12, imageWidth: 1)
            let wide = run(variant, rows: 12, imageWidth: 4)
            let serialPhase = try XCTUnwrap(serial.details.iconsPhaseSeconds)
            let widePhase = try XCTUnwrap(wide.details.iconsPhaseSeconds)
            XCTAssertLessThan(
                widePhase, 0.5 * serialPhase, "\(variant) icons phase: width 4 \(widePhase) s, width 1 \(serialPhase) s"
            )
            XCTAssertEqual(serial.details.rows, wide.details.rows)
        }
    }

    func testWithTheCacheScrollingBackFetchesNothing() throws {
        // Down a screenful and back up: the rows that come back were fetched a moment ago.
        for variant in variants {
            let down = run(variant, rows: 12, visibleRows: 4, scroll: [4])
            let cached = run(variant, rows: 12, visibleRows: 4, scroll: [4, -4])
            let uncached = run(variant, rows: 12, visibleRows: 4, scroll: [4, -4], cache: false)
            for run in [down, cached, uncached] { XCTAssertNil(run.failure, "\(variant)") }
            // Scrolling back up made no request at all with the cache...
            XCTAssertEqual(cached.count(.requestsServed), down.count(.requestsServed), "\(variant)")
            XCTAssertEqual(cached.count(.iconCacheHits), 4, "\(variant)")
            // ...and a screenful of them without it: with/without is 8/12 icon requests.
            let with = Double(cached.count(.iconRequests) ?? 0)
            let without = Double(uncached.count(.iconRequests) ?? 0)
            XCTAssertEqual(with / without, 8.0 / 12.0, accuracy: 0.001, "\(variant): \(with) vs \(without)")
            XCTAssertEqual(uncached.count(.iconCacheHits), 0, "\(variant)")
            XCTAssertEqual(cached.details.rows, uncached.details.rows, "\(variant): the same icons either way")
        }
    }
}

/// What a cancel promises in lesson 03: no request for an icon or the timeline after the tap
/// (beyond one already on its way), no row or icon set after it, and a run that gives up
/// leaves nothing running. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N`).
final class Lesson03CancelTests: Lesson03RunCase {
    /// Item 4 of the audit: the async timeline was taken and shown (0 -> 6 rows) after a cancel
    /// that came while its answer was in hand. Cancels just as the timeline's answer arrives.
    func testACancelWithTheTimelineInHandShowsNothing() {
        for variant in [Variant.threaded, .async] {
            for at in [0.05, 0.06] {
                let run = cancelled(variant, at: at)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at \(at) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03CancelSlowTests: Lesson03RunCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 03 random cancels", Variant.allCases, within: 0...0.8, run: { cancelled($0, at: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 6 of the audit: the threaded variant had no cancel at all, and went on fetching
    /// icons (requests 3 -> 7) after its run had given up. Now nothing reaches the server after.
    func testARunThatGivesUpLeavesNothingRunning() throws {
        // The slow tier: Lesson03PairTests gives an async run up in the learner's suite.
        server.server.knobs.latencySeconds = 0.2
        for variant in [Variant.threaded, .async] {
            let run = cancelled(variant, at: nil, timeout: 0.5)
            XCTAssertTrue(run.failure?.contains("gave up") == true, "\(variant): \(run.failure ?? "no failure")")
            let ended = monotonicSeconds()
            _ = MainActor.assumeIsolated { MainLoop.run(timeout: 1) { false } }  // late icons would come here
            XCTAssertEqual(server.server.requestsReceived(since: ended), 0, "\(variant): requests after giving up")
        }
    }
}

/// The timeline picture of a real run, checked as a picture: it parses as XML, and rendered by
/// a real SVG renderer, the no-thread main lane is mostly busy and the threaded and async ones mostly idle.
final class Lesson03PictureSlowTests: XCTestCase {
    func testTheMainLaneIsBusyWithoutThreadsAndIdleWithQueuesOrTasks() throws {
        // A quarter of a second a request: the no-thread main lane is mostly waiting, whatever a
        // busy machine adds to the moments between two requests.
        let server = try TestServer(latency: 0.25)
        defer { server.stop() }
        let endpoint = server.endpoint
        var settings = TimelineRun.Settings()
        settings.rows = 12
        settings.timeoutSeconds = 30
        let runs = MainActor.assumeIsolated {
            [Variant.noThread, .threaded, .async].map {
                TimelineRun.perform($0, endpoint: endpoint, settings: settings)
            }
        }
        let picture = TimelinePicture(
            title: "Lesson 03", subtitle: "12 rows", runs: runs.map(\.pictureRun), caption: "a caption & <escapes>")
        XCTAssertNil(xmlParseError(picture.svg), "the SVG is not well-formed XML")
        XCTAssertFalse(picture.svg.contains("<script"), "no scripts")
        XCTAssertFalse(picture.svg.contains("href"), "no links or external images")

        let png: String
        do { png = try SVGRenderer.render(picture.svg, name: "lesson03") } catch let missing as SVGRenderer.Unsupported
        {
            throw XCTSkip("\(missing)")
        }
        let image = try PNGImage(contentsOf: png)
        XCTAssertEqual(image.width, Int(picture.width))
        let busyColors = TimelinePicture.Kind.allCases.map(\.color)
        func busyShare(_ variant: String) throws -> Double {
            let lane = try XCTUnwrap(picture.mainLanes[variant], "no main lane for \(variant)")
            return image.share(of: busyColors, inX: lane.x, y: lane.y, width: lane.width, height: lane.height)
        }
        let plain = try busyShare("no-thread")
        XCTAssertGreaterThan(plain, 0.5, "no-thread main lane busy share \(plain)")
        for variant in ["threaded", "async"] {
            let moved = try busyShare(variant)
            XCTAssertLessThan(moved, 0.25, "\(variant) main lane busy share \(moved)")
            XCTAssertGreaterThan(plain, 4 * moved, "busy share no-thread \(plain) vs \(variant) \(moved)")
        }
    }
}
