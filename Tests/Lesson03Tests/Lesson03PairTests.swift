import Foundation
import Lesson03Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

/// The same job through the three variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (Swift Testing runs its tests on other threads, where
/// RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest runs each
/// test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
///
/// What Lesson03PairTests and Lesson03PairSlowTests (the slow tier) share; no tests of its own.
class Lesson03PairCase: XCTestCase {
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
        cache: Bool = true, prepare: @escaping @MainActor @Sendable (TimelineController) -> Void = { _ in }
    ) -> VariantRun<TimelineDetails> {
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.visibleRows = visibleRows
        settings.scrollMoves = scroll
        settings.cache = cache
        settings.timeoutSeconds = 30
        let endpoint = server.endpoint
        return MainActor.assumeIsolated {
            TimelineRun.perform(variant, endpoint: endpoint, settings: settings, prepare: prepare)
        }
    }
}

final class Lesson03PairTests: Lesson03PairCase {
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

    func testThreadedKeepsTheMainThreadFree() {
        // 50 ms per request, 20 rows: about a second of waiting, so a busy CI machine's
        // scheduling hiccups stay small next to it.
        let plain = run(.noThread, rows: 20)
        let queued = run(.threaded, rows: 20)
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
final class Lesson03PairSlowTests: Lesson03PairCase {
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
