import Foundation
import LessonTemplateKit
import LessonTestSupport
import WorkshopCore
import XCTest

// XCTest, because every test here runs lesson Template's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). A test that needs no main thread goes in a Swift Testing file of
// its own (`@Suite struct`), as every lesson's program tests do (`LessonNNCLITests`).

/// Lesson Template's runs on the main thread: the same job through the three variants, side by
/// side (`LessonTemplatePairTests`), and what a cancel promises (`LessonTemplateCancelTests`);
/// the slow tier's random cancels. Every run is bounded by a timeout. XCTest runs each test on
/// the main thread, so a test may step onto the main actor with `assumeIsolated`. No tests of
/// its own.
class LessonTemplateRunCase: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer(latency: 0.1) }
    override func tearDown() { server.stop() }

    func run(_ variant: Variant, count: Int = 10, cancelAfter: Double? = nil) -> VariantRun<RowsDetails> {
        var settings = RowsRun.Settings()
        settings.count = count
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

/// The same rows, and where the job ran.
final class LessonTemplatePairTests: LessonTemplateRunCase {
    func testEveryVariantShowsTheSameRowsAndOnlyTheNoThreadOneWorksOnMain() throws {
        let runs = Variant.allCases.map { run($0) }
        for run in runs { XCTAssertNil(run.failure, run.name) }
        XCTAssertFalse(runs[0].details.rows.isEmpty, "the no-thread variant shows rows")
        for run in runs.dropFirst() { XCTAssertEqual(run.details.rows, runs[0].details.rows, run.name) }
        // Where the work ran decides, not how long a frame took: on a busy machine any
        // variant's frames can come late, but a span recorded on "main" ran there. (The
        // controller's "reload" is on main in every variant.)
        XCTAssertEqual(runs[0].lanes(excluding: ["reload"]), ["main"], "no-thread does the job on the main thread")
        for run in runs.dropFirst() {
            XCTAssertFalse(run.lanes(excluding: ["reload"]).contains("main"), "\(run.name) ran on \(run.lanes())")
        }
        // The no-thread variant waited out the 0.1 s latency on main: a freeze at least that
        // long (load can only lengthen it).
        XCTAssertGreaterThanOrEqual(runs[0].screen.maxStallSeconds, 0.09)
    }
}

/// What a cancel promises, for every variant: nothing sent or shown after the tap (beyond a
/// request already on its way). Cancel points are random, from a printed seed
/// (`SAKUSAKU_SEED=N` repeats them).
final class LessonTemplateCancelTests: LessonTemplateRunCase {
    /// A cancel while the answer is on its way: the threaded and async variants show nothing.
    func testACancelWhileTheAnswerIsOnItsWayShowsNothing() {
        for variant in [Variant.threaded, .async] {
            let run = run(variant, cancelAfter: 0.02)
            XCTAssertEqual(problems(run, variant), [], "\(variant)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class LessonTemplateCancelSlowTests: LessonTemplateRunCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson Template random cancels", Variant.allCases, within: 0...0.2, run: { run($0, cancelAfter: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }
}
