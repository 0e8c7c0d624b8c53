import LessonTestSupport
import WorkshopCore
import XCTest

@testable import Lesson07Kit

/// The same row heights (8,000 for the timing runs) measured the three ways. XCTest, because these
/// runs need the real main thread and its run loop (Swift Testing runs its tests on other
/// threads, where RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest
/// runs each test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
///
/// What Lesson07PairTests and Lesson07PairSlowTests (the slow tier) share; no tests of its own.
class Lesson07PairCase: XCTestCase {
    func run(_ variant: Variant, rows: Int = 8000, timeout: Double = 120) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: 40, chunkSize: 250)
        settings.timeoutSeconds = timeout
        return MainActor.assumeIsolated { HeightsRun.perform(variant, settings: settings) }
    }
}

final class Lesson07PairTests: Lesson07PairCase {
    func testTheThreeVariantsMeasureTheSameHeights() throws {
        let plain = run(.noThread, rows: 500)
        let queued = run(.threaded, rows: 500)
        let tasks = run(.async, rows: 500)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertNil(tasks.failure)
        XCTAssertEqual(plain.details.heights.count, 500)
        XCTAssertEqual(plain.details.heights, queued.details.heights)
        XCTAssertEqual(plain.details.heights, tasks.details.heights)
        // A wider task group measures chunks out of order; the cache puts them in place.
        var wide = HeightsRun.Settings(rows: 500, width: 40, chunkSize: 30, tasks: 4)
        wide.timeoutSeconds = 120
        let widened = MainActor.assumeIsolated { HeightsRun.perform(.async, settings: wide) }
        XCTAssertNil(widened.failure)
        XCTAssertEqual(plain.details.heights, widened.details.heights)
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
        XCTAssertGreaterThan(queued.metric(.estimatedHeightsUsed), 0, "the threaded table drew estimates first")
        XCTAssertEqual(plain.metric(.estimatedHeightsUsed), 0, "the no-thread table never needed one")
        XCTAssertGreaterThanOrEqual(plain.metric(.cacheHits), 8000, "every row's height came from the cache at reload")
    }

    func testARunThatGivesUpSaysHowFarItGot() throws {
        // 40,000 rows take seconds to measure; the run may take a tenth of a second.
        for variant in [Variant.threaded, .async] {
            let stopped = run(variant, rows: 40_000, timeout: 0.1)
            let failure = try XCTUnwrap(stopped.failure)
            XCTAssertTrue(failure.hasPrefix("gave up after 0.1 s: "), failure)
            XCTAssertTrue(failure.hasSuffix(" of 40000 rows measured"), failure)
            XCTAssertTrue(stopped.gotStarted, "\(variant): the table was on screen with estimated heights")
            XCTAssertLessThan(stopped.metric(.rowsMeasured), 40_000)
        }
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

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson07PairSlowTests: Lesson07PairCase {
    func testTheTaskGroupKeepsTheMainThreadAsFreeAsTheQueue() throws {
        let plain = run(.noThread)
        // As above: up to three tries of the two off-main runs together, until the ratios hold.
        typealias Pair = (queued: VariantRun<HeightsDetails>, tasks: VariantRun<HeightsDetails>)
        func ratiosHold(_ pair: Pair) -> Bool {
            let (queuedStall, tasksStall) = (pair.queued.screen.maxStallSeconds, pair.tasks.screen.maxStallSeconds)
            let (queuedTotal, tasksTotal) = (pair.queued.seconds(.totalSeconds)!, pair.tasks.seconds(.totalSeconds)!)
            return tasksStall <= VariantComparison.freezeAllowed(against: queuedStall)
                && tasksStall < 0.1 * plain.screen.maxStallSeconds
                && tasksTotal <= VariantComparison.totalAllowed(against: queuedTotal)
        }
        let (queued, tasks) = firstPassing(passes: ratiosHold) { () -> Pair in (run(.threaded), run(.async)) }
        print(
            String(
                format:
                    "lesson07 triple: max stall no-thread %.3f s, threaded %.3f s, async %.3f s; total %.2f / %.2f / %.2f s",
                plain.screen.maxStallSeconds, queued.screen.maxStallSeconds, tasks.screen.maxStallSeconds,
                plain.seconds(.totalSeconds)!, queued.seconds(.totalSeconds)!, tasks.seconds(.totalSeconds)!))
        XCTAssertNil(tasks.failure)
        XCTAssertEqual(plain.details.heights, tasks.details.heights)
        // Within 2x of the queue's worst freeze (with a 50 ms floor: two near-zero stalls must
        // not flake), and far below the no-thread one.
        XCTAssertLessThanOrEqual(
            tasks.screen.maxStallSeconds, VariantComparison.freezeAllowed(against: queued.screen.maxStallSeconds),
            "async stall \(tasks.screen.maxStallSeconds) s vs threaded \(queued.screen.maxStallSeconds) s")
        XCTAssertLessThan(tasks.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds)
        // The same measuring, one chunk at a time: no longer overall than the queue.
        XCTAssertLessThanOrEqual(
            tasks.seconds(.totalSeconds)!, VariantComparison.totalAllowed(against: queued.seconds(.totalSeconds)!),
            "async total vs threaded total")
        XCTAssertLessThan(tasks.screen.firstRowsSeconds ?? .infinity, 0.1 * (plain.screen.firstRowsSeconds ?? 0))
        XCTAssertGreaterThan(tasks.metric(.estimatedHeightsUsed), 0, "the async table drew estimates first")
    }

    func testACancelledTaskGroupMeasuresAtMostTheChunksInHand() throws {
        let spans = MainActor.assumeIsolated {
            let controller = RowHeightsController(
                title: "cancelled", output: .silent, texts: HeightsRun.texts(count: 40_000), estimatedHeight: 60)
            AsyncHeights.start(controller, cellWidth: 40, chunkSize: 250, tasks: 2)
            // Cancel mid-flight, once the first chunk is in.
            let started = MainLoop.run(timeout: 30) { controller.cache.measuredCount > 0 }
            XCTAssertTrue(started, "no chunk came in")
            controller.cancelTask()
            let atCancel = controller.trace.recorded.filter { $0.lane == "task pool" }.count
            // The group's child tasks end soon after; then the main loop has nothing to wait for.
            _ = MainLoop.run(timeout: 5) { controller.failure != nil }
            return (atCancel, controller.trace.recorded.filter { $0.lane == "task pool" }.count)
        }
        // At most the two chunks in hand when the task was cancelled (160 without it).
        XCTAssertLessThanOrEqual(spans.1, spans.0 + 2, "chunks measured after cancelTask()")
    }
}

extension VariantRun {
    func metric(_ name: MetricName) -> Int { count(name) ?? -1 }
}
