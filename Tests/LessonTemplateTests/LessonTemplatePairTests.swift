import Foundation
import LessonTemplateKit
import LessonTestSupport
import WorkshopCore
import XCTest

/// The same job through the three variants, side by side: the same rows, and where the work
/// ran. XCTest: the runs need the real main thread and its run loop (Swift Testing runs its
/// tests on other threads, where RunLoop.main's timers never fire); every run is bounded by a
/// timeout.
final class LessonTemplatePairTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws { server = try TestServer(latency: 0.1) }
    override func tearDown() { server.stop() }

    private func run(_ variant: Variant) -> VariantRun<RowsDetails> {
        var settings = RowsRun.Settings()
        settings.count = 10
        settings.timeoutSeconds = 30
        let endpoint = server.endpoint
        return MainActor.assumeIsolated { RowsRun.perform(variant, endpoint: endpoint, settings: settings) }
    }

    /// The lanes the job's spans ran in (every span but the controller's "reload", which is on main).
    private func lanes(_ run: VariantRun<RowsDetails>) -> Set<String> {
        Set(run.trace.recorded.filter { $0.name != "reload" }.map(\.lane))
    }

    func testEveryVariantShowsTheSameRowsAndOnlyTheNoThreadOneWorksOnMain() throws {
        let runs = Variant.allCases.map { run($0) }
        for run in runs { XCTAssertNil(run.failure, run.name) }
        XCTAssertFalse(runs[0].details.rows.isEmpty, "the no-thread variant shows rows")
        for run in runs.dropFirst() { XCTAssertEqual(run.details.rows, runs[0].details.rows, run.name) }
        // Where the work ran decides, not how long a frame took: on a busy machine any
        // variant's frames can come late, but a span recorded on "main" ran there.
        XCTAssertEqual(lanes(runs[0]), ["main"], "no-thread does the job on the main thread")
        for run in runs.dropFirst() {
            XCTAssertFalse(lanes(run).contains("main"), "\(run.name) ran on \(lanes(run))")
        }
        // The no-thread variant waited out the 0.1 s latency on main: a freeze at least that
        // long (load can only lengthen it).
        XCTAssertGreaterThanOrEqual(runs[0].screen.maxStallSeconds, 0.09)
    }
}
