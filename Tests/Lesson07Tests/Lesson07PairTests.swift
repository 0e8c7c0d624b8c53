import WorkshopCore
import XCTest

@testable import Lesson07Kit

/// The same row heights (8,000 for the timing pair) measured both ways. XCTest, because these
/// runs need the real main thread and its run loop (Swift Testing runs its tests on other
/// threads, where RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest
/// runs each test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
final class Lesson07PairTests: XCTestCase {
    private func run(_ variant: Variant, rows: Int = 8000, timeout: Double = 120) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: 40, chunkSize: 250)
        settings.timeoutSeconds = timeout
        return MainActor.assumeIsolated { HeightsRun.perform(variant, settings: settings) }
    }

    func testBothVariantsMeasureTheSameHeights() throws {
        let plain = run(.noThread, rows: 500)
        let queued = run(.threaded, rows: 500)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(plain.details.heights.count, 500)
        XCTAssertEqual(plain.details.heights, queued.details.heights)
        // And they are the sizing cell's heights: its lines at 36 cells, 20 points each, plus 20.
        let texts = HeightsRun.texts(count: 500)
        for row in [0, 1, 77, 499] {
            let lines = TextWrapping.wrap(texts[row], width: 36, mode: .word).count
            XCTAssertEqual(plain.details.heights[row], Double(lines * 20 + 20), "row \(row)")
        }
        XCTAssertGreaterThan(Set(plain.details.heights.compactMap { $0 }).count, 1, "the rows have different heights")
    }

    func testThreadedKeepsTheMainThreadFree() {
        let plain = run(.noThread)
        // Other processes on a shared 2-core machine can take the core from the main thread
        // for a moment, which only ever *adds* to a stall. So the threaded run gets up to three
        // tries and the smallest stall counts; the no-thread stall is the whole measuring time
        // every time. (The main thread's own work per chunk is a cache store and a reload.)
        var attempts: [VariantRun<HeightsDetails>] = []
        repeat {
            attempts.append(run(.threaded))
        } while attempts.count < 3 && attempts.last!.screen.maxStallSeconds >= 0.1 * plain.screen.maxStallSeconds
        let queued = attempts.min { $0.screen.maxStallSeconds < $1.screen.maxStallSeconds }!
        XCTAssertEqual(plain.details.heights, queued.details.heights)
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds,
            "threaded stalls \(attempts.map(\.screen.maxStallSeconds)) s vs no-thread \(plain.screen.maxStallSeconds) s"
        )
        // The threaded table is on screen (with estimates) long before the no-thread one.
        XCTAssertLessThan(queued.screen.firstRowsSeconds ?? .infinity, 0.1 * (plain.screen.firstRowsSeconds ?? 0))
        XCTAssertGreaterThan(queued.metric("estimatedHeightsUsed"), 0, "the threaded table drew estimates first")
        XCTAssertEqual(plain.metric("estimatedHeightsUsed"), 0, "the no-thread table never needed one")
        XCTAssertGreaterThanOrEqual(plain.metric("cacheHits"), 8000, "every row's height came from the cache at reload")
    }

    func testARunThatGivesUpSaysHowFarItGot() throws {
        // 40,000 rows take seconds to measure; the run may take a tenth of a second.
        let stopped = run(.threaded, rows: 40_000, timeout: 0.1)
        let failure = try XCTUnwrap(stopped.failure)
        XCTAssertTrue(failure.hasPrefix("gave up after 0.1 s: "), failure)
        XCTAssertTrue(failure.hasSuffix(" of 40000 rows measured"), failure)
        XCTAssertTrue(stopped.gotStarted, "the table was on screen with estimated heights")
        XCTAssertLessThan(stopped.metric("rowsMeasured"), 40_000)
    }

    func testACancelledQueueMeasuresAtMostTheChunkInHand() {
        let spans = MainActor.assumeIsolated {
            let controller = RowHeightsController(
                title: "cancelled", output: .silent, texts: HeightsRun.texts(count: 40_000), estimatedHeight: 60)
            let threaded = ThreadedHeights(chunkSize: 250)
            threaded.start(controller, cellWidth: 40)
            threaded.cancel()
            // The queue is serial: this runs once the measuring block has returned.
            let drained = DispatchSemaphore(value: 0)
            threaded.queue.async { drained.signal() }
            XCTAssertEqual(drained.wait(timeout: .now() + 30), .success, "the measuring did not stop")
            return controller.trace.recorded.filter { $0.lane == "height-queue" }.count
        }
        XCTAssertLessThanOrEqual(spans, 1, "chunks measured after cancel() (160 without it)")
    }
}

extension VariantRun {
    func metric(_ name: String) -> Int { count(name) ?? -1 }
}
