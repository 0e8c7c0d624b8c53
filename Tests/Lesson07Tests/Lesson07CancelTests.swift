import Lesson07Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises in lesson 07: no chunk of heights is shown after the tap (one
/// measured just before it is dropped), and the measuring stops. Cancel points are random,
/// from a printed seed (`SAKUSAKU_SEED=N` reruns).
final class Lesson07CancelSlowTests: XCTestCase {
    private func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: 4_000, width: 40, chunkSize: 100, tasks: 2)
        settings.cancelAfter = cancelAfter
        settings.timeoutSeconds = 60
        return MainActor.assumeIsolated { HeightsRun.perform(variant, settings: settings) }
    }

    func testRandomCancelPointsShowNothingAfterTheCancel() throws {
        // The no-thread variant measures every row before main sees the tap: no promptness asked.
        let found = randomCancelProblems(
            "lesson 07 random cancels", Variant.allCases, within: 0...0.6, run: { run($0, cancelAfter: $1) },
            problems: { $0.cancelProblems(blocking: $1 == .noThread) })
        XCTAssertEqual(found, [])
    }
}
