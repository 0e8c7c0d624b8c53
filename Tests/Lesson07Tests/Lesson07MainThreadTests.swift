import LessonTestSupport
import WorkshopCore
import XCTest

@testable import Lesson07Kit

// XCTest, because every test here runs lesson 07's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 07's runs on the main thread: the same row heights (8,000 for the timing runs)
/// measured the three ways (`Lesson07PairTests`), where an awaited function runs
/// (`StepIsolationTests`), and random cancels; their slow tiers. Every run is bounded by a
/// timeout. XCTest runs each test on the main thread, so a test may step onto the main actor
/// with `assumeIsolated`. No tests of its own.
class Lesson07RunCase: XCTestCase {
    func run(
        _ variant: Variant, rows: Int = 8000, chunkSize: Int = 250, tasks: Int? = nil, timeout: Double = 120,
        stepIsolation: StepIsolation? = nil, cancelAfter: Double? = nil
    ) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: 40, chunkSize: chunkSize)
        if let tasks { settings.tasks = tasks }
        settings.timeoutSeconds = timeout
        settings.stepIsolation = stepIsolation
        settings.cancelAfter = cancelAfter
        return MainActor.assumeIsolated { HeightsRun.perform(variant, settings: settings) }
    }
}

final class Lesson07PairTests: Lesson07RunCase {
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
        let widened = run(.async, rows: 500, chunkSize: 30, tasks: 4)
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
final class Lesson07PairSlowTests: Lesson07RunCase {
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

/// Approachable Concurrency's rule, measured (`--step-isolation`): the same chunks measured by a
/// function the main actor awaits, `nonisolated(nonsending)` (a plain `nonisolated` async function
/// with `NonisolatedNonsendingByDefault` on, as in this package) or `@concurrent` (the same with it
/// off), and nothing else changed. The first runs on its caller's actor, main, and freezes the
/// Screen; the second leaves it. Decided on evidence load cannot fake, where each chunk ran (the
/// trace records the thread) and which chunks began after a cancel; the worst freezes are
/// weighed on a job long enough that a busy machine's moments stay small next to it.
final class StepIsolationTests: Lesson07RunCase {
    /// The lanes the chunks' measuring was recorded in.
    func measuringLanes(_ run: VariantRun<HeightsDetails>) -> Set<String> {
        Set(run.trace.recorded.filter { $0.name.hasPrefix("measure rows") }.map(\.lane))
    }

    func testNonsendingMeasuresOnMainAndFreezesTenTimesLongerThanConcurrent() throws {
        // 6,000 rows: seconds of measuring on main, whatever the machine; on a busy one another
        // program can hold main's core for a moment in the concurrent run, which only ever adds
        // to its freeze, so it gets up to three tries and the smallest freeze counts.
        let onCaller = run(.async, rows: 6000, stepIsolation: .nonsending)
        var tries: [VariantRun<HeightsDetails>] = []
        repeat {
            tries.append(run(.async, rows: 6000, stepIsolation: .concurrent))
        } while tries.count < 3
            && tries.last.map { 10 * $0.screen.maxStallSeconds > onCaller.screen.maxStallSeconds }
                == true
        let concurrent = try XCTUnwrap(tries.min { $0.screen.maxStallSeconds < $1.screen.maxStallSeconds })
        XCTAssertNil(onCaller.failure)
        XCTAssertNil(concurrent.failure)
        // The same job: the same heights, every row measured.
        XCTAssertEqual(onCaller.details.heights, concurrent.details.heights)
        XCTAssertEqual(concurrent.details.heights.compactMap { $0 }.count, 6000)
        // Where it ran: every chunk on main in one, none there in the other.
        XCTAssertEqual(measuringLanes(onCaller), ["main"], "nonisolated(nonsending) runs on its caller's actor")
        XCTAssertFalse(measuringLanes(concurrent).isEmpty)
        XCTAssertFalse(measuringLanes(concurrent).contains("main"), "@concurrent leaves the main actor")
        // What the Screen felt: the worst freeze, at least ten times longer on the caller's actor.
        let frozen = onCaller.screen.maxStallSeconds
        let free = concurrent.screen.maxStallSeconds
        XCTAssertGreaterThanOrEqual(
            frozen, 10 * free,
            "worst freeze: nonsending \(frozen) s, concurrent \(tries.map(\.screen.maxStallSeconds)) s")
        let hang = ScreenMetrics.hangSeconds
        XCTAssertGreaterThan(
            onCaller.screen.stalls.filter { $0.seconds >= hang }.count, 0, "a freeze that long is a hang")
        XCTAssertEqual(
            concurrent.screen.stalls.filter { $0.seconds >= 10 * hang }.count, 0, "@concurrent: no freeze of seconds")
    }

    /// Cancelled at random points (seeded, `SAKUSAKU_SEED=N` reruns), either way: no chunk is
    /// shown after the tap, and none begins after it but the one in hand (already on its way to
    /// the task pool when main handled the tap). Counted in chunks, not seconds: on a busy
    /// machine the chunk in hand can take a while, and that is the machine, not the code. The
    /// nonsending run never lets main see the tap before it is done (it blocks, as the no-thread
    /// variant does), so it begins nothing after it either.
    func testRandomCancelPointsShowNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 07 step isolation random cancels", StepIsolation.allCases, tries: 2, within: 0...0.4,
            run: { isolation, at in
                run(.async, rows: 2000, chunkSize: 100, timeout: 60, stepIsolation: isolation, cancelAfter: at)
            },
            problems: { run, _ in
                run.cancelProblems(blocking: true) + Self.chunksBegunAfterTheCancel(run, allowed: 1)
            })
        XCTAssertEqual(found, [])
    }

    /// The chunks whose measuring began after main handled the tap, if more than `allowed` did
    /// (empty: at most that many, or the run had ended before the tap).
    static func chunksBegunAfterTheCancel(_ run: VariantRun<HeightsDetails>, allowed: Int) -> [String] {
        guard let handled = run.seconds(.cancelHandledSeconds) else { return [] }
        let tap = run.traceOffset + handled
        let begun = run.trace.recorded.filter { $0.name.hasPrefix("measure rows") && $0.start > tap }
        return begun.count <= allowed ? [] : ["\(run.name): \(begun.map(\.name)) began after the cancel"]
    }
}

/// What a cancel promises in lesson 07: no chunk of heights is shown after the tap (one
/// measured just before it is dropped), and the measuring stops. Cancel points are random,
/// from a printed seed (`SAKUSAKU_SEED=N` reruns).
final class Lesson07CancelSlowTests: Lesson07RunCase {
    func testRandomCancelPointsShowNothingAfterTheCancel() throws {
        // The no-thread variant measures every row before main sees the tap: no promptness asked.
        let found = randomCancelProblems(
            "lesson 07 random cancels", Variant.allCases, within: 0...0.6,
            run: { run($0, rows: 4_000, chunkSize: 100, tasks: 2, timeout: 60, cancelAfter: $1) },
            problems: { $0.cancelProblems(blocking: $1 == .noThread) })
        XCTAssertEqual(found, [])
    }
}

extension VariantRun {
    func metric(_ name: MetricName) -> Int { count(name) ?? -1 }
}
