import LessonTemplateKit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises, for every variant: nothing sent or shown after the tap (beyond a
/// request already on its way). Cancel points are random, from a printed seed
/// (`SAKUSAKU_SEED=N` repeats them).
///
/// What LessonTemplateCancelTests and LessonTemplateCancelSlowTests (the slow tier) share; no
/// tests of its own.
class LessonTemplateCancelCase: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer(latency: 0.05) }
    override func tearDown() { server.stop() }

    func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<RowsDetails> {
        var settings = RowsRun.Settings()
        settings.cancelAfter = cancelAfter
        settings.timeoutSeconds = 30
        let endpoint = server.endpoint
        return MainActor.assumeIsolated { RowsRun.perform(variant, endpoint: endpoint, settings: settings) }
    }

    /// The no-thread variant sees the tap only between two blocking calls: no promptness asked.
    func problems(_ run: VariantRun<RowsDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread)
    }
}

final class LessonTemplateCancelTests: LessonTemplateCancelCase {
    /// A cancel while the answer is on its way: the threaded and async variants show nothing.
    func testACancelWhileTheAnswerIsOnItsWayShowsNothing() {
        for variant in [Variant.threaded, .async] {
            let run = run(variant, cancelAfter: 0.02)
            XCTAssertEqual(problems(run, variant), [], "\(variant)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class LessonTemplateCancelSlowTests: LessonTemplateCancelCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson Template random cancels", Variant.allCases, within: 0...0.2, run: { run($0, cancelAfter: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }
}
