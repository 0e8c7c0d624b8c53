import Lesson07Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises in lesson 07: no chunk of heights is shown after the tap (one
/// measured just before it is dropped), and the measuring stops. Cancel points are random,
/// from a printed seed (`SAKUSAKU_SEED=N` reruns).
final class Lesson07CancelTests: XCTestCase {
    private func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: 4_000, width: 40, chunkSize: 100, tasks: 2)
        settings.cancelAfter = cancelAfter
        settings.timeoutSeconds = 60
        return MainActor.assumeIsolated { HeightsRun.perform(variant, settings: settings) }
    }

    func testRandomCancelPointsShowNothingAfterTheCancel() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        var random = SeededRandom.announced("lesson 07 random cancels")
        for variant in [Variant.noThread, .threaded, .async] {
            for _ in 0..<3 {
                let at = Double.random(in: 0...0.6, using: &random)
                let run = run(variant, cancelAfter: at)
                let context = "\(variant) cancelled at \(at) s (seed \(random.seed))"
                // The no-thread variant measures every row before main sees the tap: no promptness asked.
                XCTAssertEqual(run.cancelProblems(promptness: variant == .noThread ? .infinity : 1), [], context)
                XCTAssertNil(run.failure, context)
            }
        }
    }
}
