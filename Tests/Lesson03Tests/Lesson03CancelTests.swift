import Lesson03Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises in lesson 03: no request for an icon or the timeline after the tap
/// (beyond one already on its way), no row or icon set after it, and a run that gives up
/// leaves nothing running. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N`).
///
/// What Lesson03CancelTests and Lesson03CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson03CancelCase: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer(latency: 0.05)
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ variant: Variant, cancelAfter: Double?, timeout: Double = 30) -> VariantRun<TimelineDetails> {
        var settings = TimelineRun.Settings()
        settings.rows = 12
        settings.cancelAfter = cancelAfter
        settings.timeoutSeconds = timeout
        let endpoint = server.endpoint
        return MainActor.assumeIsolated { TimelineRun.perform(variant, endpoint: endpoint, settings: settings) }
    }

    /// The no-thread variant sees the tap only between two blocking fetches: no promptness asked.
    func problems(_ run: VariantRun<TimelineDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread)
    }
}

final class Lesson03CancelTests: Lesson03CancelCase {
    /// Item 4 of the audit: the async timeline was taken and shown (0 -> 6 rows) after a cancel
    /// that came while its answer was in hand. Cancels just as the timeline's answer arrives.
    func testACancelWithTheTimelineInHandShowsNothing() {
        for variant in [Variant.threaded, .async] {
            for at in [0.05, 0.06] {
                let run = run(variant, cancelAfter: at)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at \(at) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03CancelSlowTests: Lesson03CancelCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 03 random cancels", Variant.allCases, within: 0...0.8, run: { run($0, cancelAfter: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 6 of the audit: the threaded variant had no cancel at all, and went on fetching
    /// icons (requests 3 -> 7) after its run had given up. Now nothing reaches the server after.
    func testARunThatGivesUpLeavesNothingRunning() throws {
        // The slow tier: Lesson03PairTests gives an async run up in the learner's suite.
        server.server.knobs.latencySeconds = 0.2
        for variant in [Variant.threaded, .async] {
            let run = run(variant, cancelAfter: nil, timeout: 0.5)
            XCTAssertTrue(run.failure?.contains("gave up") == true, "\(variant): \(run.failure ?? "no failure")")
            let ended = monotonicSeconds()
            _ = MainActor.assumeIsolated { MainLoop.run(timeout: 1) { false } }  // late icons would come here
            XCTAssertEqual(server.server.requestsReceived(since: ended), 0, "\(variant): requests after giving up")
        }
    }
}
