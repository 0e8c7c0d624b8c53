import LessonTestSupport
import WorkshopCore
import XCTest

@testable import Lesson07Kit

/// Approachable Concurrency's rule, measured (`--step-isolation`): the same chunks measured by a
/// function the main actor awaits, `nonisolated(nonsending)` (a plain `nonisolated` async function
/// with `NonisolatedNonsendingByDefault` on, as in this package) or `@concurrent` (the same with it
/// off), and nothing else changed.
/// The first runs on its caller's actor, main, and freezes the Screen; the second leaves it.
/// Decided on evidence load cannot fake, where each chunk ran (the trace records the thread),
/// and on a generous ratio of the two worst freezes, never on an absolute time.
final class StepIsolationTests: XCTestCase {
    func run(_ isolation: StepIsolation, rows: Int) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: 40, chunkSize: 250)
        settings.timeoutSeconds = 120
        settings.stepIsolation = isolation
        return MainActor.assumeIsolated { HeightsRun.perform(.async, settings: settings) }
    }

    /// The lanes the chunks' measuring was recorded in.
    func measuringLanes(_ run: VariantRun<HeightsDetails>) -> Set<String> {
        Set(run.trace.recorded.filter { $0.name.hasPrefix("measure rows") }.map(\.lane))
    }

    func testNonsendingMeasuresOnMainAndFreezesTenTimesLongerThanConcurrent() throws {
        let onCaller = run(.nonsending, rows: 4000)
        let concurrent = run(.concurrent, rows: 4000)
        XCTAssertNil(onCaller.failure)
        XCTAssertNil(concurrent.failure)
        // The same job: the same heights, every row measured.
        XCTAssertEqual(onCaller.details.heights, concurrent.details.heights)
        XCTAssertEqual(concurrent.details.heights.compactMap { $0 }.count, 4000)
        // Where it ran: every chunk on main in one, none there in the other.
        XCTAssertEqual(measuringLanes(onCaller), ["main"], "nonisolated(nonsending) runs on its caller's actor")
        XCTAssertFalse(measuringLanes(concurrent).isEmpty)
        XCTAssertFalse(measuringLanes(concurrent).contains("main"), "@concurrent leaves the main actor")
        // What the Screen felt: the worst freeze, at least ten times longer on the caller's actor.
        let frozen = onCaller.screen.maxStallSeconds
        let free = concurrent.screen.maxStallSeconds
        XCTAssertGreaterThanOrEqual(
            frozen, 10 * free, "worst freeze: nonsending \(frozen) s, concurrent \(free) s")
        let hang = ScreenMetrics.hangSeconds
        XCTAssertGreaterThan(
            onCaller.screen.stalls.filter { $0.seconds >= hang }.count, 0, "a freeze that long is a hang")
        XCTAssertEqual(
            concurrent.screen.stalls.filter { $0.seconds >= 10 * hang }.count, 0, "@concurrent: no freeze of seconds")
    }

    /// Cancelled at random points (seeded, `SAKUSAKU_SEED=N` reruns), either way: no chunk is
    /// shown after the tap. The nonsending run never lets main see the tap before it is done (it
    /// blocks, as the no-thread variant does), so only the concurrent one must stop promptly.
    func testRandomCancelPointsShowNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 07 step isolation random cancels", StepIsolation.allCases, tries: 2, within: 0...0.4,
            run: { isolation, at in
                var settings = HeightsRun.Settings(rows: 2000, width: 40, chunkSize: 100)
                settings.timeoutSeconds = 60
                settings.stepIsolation = isolation
                settings.cancelAfter = at
                return MainActor.assumeIsolated { HeightsRun.perform(.async, settings: settings) }
            },
            problems: { $0.cancelProblems(blocking: $1 == .nonsending) })
        XCTAssertEqual(found, [])
    }
}
