import Lesson03Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// The same job through both variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (Swift Testing runs its tests on other threads, where
/// RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest runs each
/// test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
final class Lesson03PairTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer(latency: 0.05)
    }

    override func tearDown() {
        server.stop()
    }

    private func run(
        _ variant: Variant, rows: Int = 10, imageWidth: Int = 1,
        prepare: @escaping @MainActor @Sendable (TimelineController) -> Void = { _ in }
    ) -> VariantRun<TimelineDetails> {
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.timeoutSeconds = 30
        let endpoint = server.endpoint
        return MainActor.assumeIsolated {
            TimelineRun.perform(variant, endpoint: endpoint, settings: settings, prepare: prepare)
        }
    }

    func testBothVariantsEndWithTheSameTable() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(plain.details.rows.count, 10)
        XCTAssertEqual(plain.details.rows, queued.details.rows, "same texts, names and icon bytes on every row")
        for (index, row) in queued.details.rows.enumerated() {
            XCTAssertEqual(row.icon, FixtureAPI.icon(for: row.detail), "row \(index + 1)")
        }
        // One timeline request and one per icon, both ways.
        XCTAssertEqual(plain.count("requestsServed"), 11)
        XCTAssertEqual(queued.count("requestsServed"), 11)
    }

    func testNoThreadFreezesTheScreenForMostOfItsRun() throws {
        let plain = run(.noThread)
        let total = try XCTUnwrap(plain.seconds("totalSeconds"))
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

    func testFourImageQueuesHalveTheIconsPhase() throws {
        // A longer link (150 ms) so that waiting, not CPU, dominates the icons phase.
        server.server.knobs.latencySeconds = 0.15
        let serial = run(.threaded, rows: 12, imageWidth: 1)
        let wide = run(.threaded, rows: 12, imageWidth: 4)
        let serialPhase = try XCTUnwrap(serial.details.iconsPhaseSeconds)
        let widePhase = try XCTUnwrap(wide.details.iconsPhaseSeconds)
        XCTAssertLessThan(widePhase, 0.5 * serialPhase, "icons phase: width 4 \(widePhase) s, width 1 \(serialPhase) s")
        XCTAssertEqual(serial.details.rows, wide.details.rows)
    }

    func testIconsStayOnTheirRowsWhenRowsAreRedrawnInFlight() {
        // Right after the rows appear (and before any icon can arrive), reload the table
        // twice: every cell now shows another row than when the fetches were queued.
        let queued = run(.threaded, rows: 8) { controller in
            controller.afterTimelineShown = {
                let table = controller.screen.table
                table.reloadData(count: table.rows.count) { table.rows[$0] }
                table.reloadData(count: table.rows.count) { table.rows[$0] }
            }
        }
        XCTAssertNil(queued.failure)
        XCTAssertEqual(queued.details.rows.count, 8)
        for (index, row) in queued.details.rows.enumerated() {
            XCTAssertEqual(row.icon, FixtureAPI.icon(for: row.detail), "row \(index + 1) shows another user's icon")
        }
    }

    func testAFailingTimelineIsReportedNotHung() {
        server.server.setFault(.status(500), forPathPrefix: "/timeline")
        for variant in [Variant.noThread, .threaded] {
            let failed = run(variant)
            XCTAssertEqual(failed.failure?.contains("HTTP 500"), true, "\(variant): \(failed.failure ?? "no failure")")
            XCTAssertTrue(failed.details.rows.isEmpty)
            XCTAssertFalse(failed.gotStarted)
        }
    }

    func testAFailingIconLeavesItsRowBlankAndTheRestLoads() {
        server.server.setFault(.drop, forPathPrefix: "/icons/aoi")
        let queued = run(.threaded, rows: 6)
        XCTAssertNil(queued.failure)
        for row in queued.details.rows {
            XCTAssertEqual(row.icon == nil, row.detail == "aoi", "row of \(row.detail)")
        }
        XCTAssertGreaterThan(queued.count("iconFailures") ?? 0, 0)
    }
}
