import Lesson02Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises in lesson 02: the network thread's fetch and parse stop (the thread
/// itself is stopped once they have), the async stream ends and takes its request with it,
/// no item reaches the table after the tap, and a server that redirects to itself fails the
/// run with one clear line instead of trapping. Cancel points are random, from a printed
/// seed (`SAKUSAKU_SEED=N` reruns).
///
/// What Lesson02CancelTests and Lesson02CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson02CancelCase: XCTestCase {
    var test: TestServer!

    override func setUpWithError() throws {
        // About 40 KB at 40 KB/s: a second of chunks to cancel in the middle of.
        test = try TestServer(latency: 0.05, bandwidth: 40_000, timeout: 15)
    }

    override func tearDown() {
        test.stop()
    }

    let kinds: [FeedRun.Kind] = [
        .noThread, .threaded(.keepAlive, .streaming), .threaded(.keepAlive, .afterDownload), .async,
    ]

    func run(_ kind: FeedRun.Kind, cancelAfter: Double?) -> VariantRun<FeedDetails> {
        let endpoint = test.endpoint
        return MainActor.assumeIsolated {
            FeedRun.perform(kind, endpoint: endpoint, items: 120, timeout: 30, cancelAfter: cancelAfter)
        }
    }

    /// The no-thread variant's main thread is inside its blocking download when the tap comes:
    /// it is not asked to stop within 1 s, only to show and send nothing after it.
    func problems(_ run: VariantRun<FeedDetails>, _ kind: FeedRun.Kind) -> [String] {
        run.cancelProblems(blocking: kind == .noThread)
    }
}

final class Lesson02CancelTests: Lesson02CancelCase {
    /// Mid-download, with items parsed and on their way to main: the table stops where it was.
    func testACancelMidDownloadStopsTheTableWhereItWas() {
        for kind in kinds where kind != .noThread {
            let run = run(kind, cancelAfter: 0.5)
            XCTAssertEqual(problems(run, kind), [], kind.name)
            XCTAssertNotNil(run.seconds(.cancelHandledSeconds), "\(kind.name): finished before the cancel")
            XCTAssertEqual(run.count(.rowsAfterCancel), 0, kind.name)
            XCTAssertLessThan(run.count(.itemsShown) ?? 0, 120, "\(kind.name): the whole feed after a cancel")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson02CancelSlowTests: Lesson02CancelCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 02 random cancels", kinds, within: 0...1.3, run: { run($0, cancelAfter: $1) }, problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 9 of the audit, for lesson 02's own delegate sessions: a server that redirects to
    /// itself fails the run with "too many redirects", and a cancel while a redirect is being
    /// decided does not trap (a trap ends the test process).
    func testARedirectLoopFailsInWordsAndCancelsSafely() throws {
        test.server.knobs.fault = .redirectLoop
        test.server.knobs.latencySeconds = 0
        for kind in [FeedRun.Kind.threaded(.keepAlive, .streaming), .async] {
            let run = run(kind, cancelAfter: nil)
            XCTAssertTrue(
                run.failure?.contains("too many redirects") == true, "\(kind.name): \(run.failure ?? "no failure")")
        }
        var random = SeededRandom.announced("lesson 02 cancels mid-redirect")
        for kind in [FeedRun.Kind.threaded(.keepAlive, .streaming), .async] {
            for _ in 0..<25 {
                _ = run(kind, cancelAfter: Double.random(in: 0...0.02, using: &random))
            }
        }
    }
}
