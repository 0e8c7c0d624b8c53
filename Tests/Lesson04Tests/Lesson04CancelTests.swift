import Lesson04Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

/// What a cancel promises in lesson 04: no request and no row after the tap (beyond one request
/// already on its way), the downloads in flight cancelled, and a run that gives up starts no
/// gzip round. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N` reruns).
///
/// What Lesson04CancelTests and Lesson04CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson04CancelCase: XCTestCase {
    var server: FixtureServer!

    override func setUpWithError() throws {
        // About 0.6 s a round: identity (82 KB) at 200 KB/s, then gzip.
        server = FixtureServer(knobs: ServerKnobs(latencySeconds: 0.05, bandwidthBytesPerSecond: 200_000))
        try server.start()
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ variant: Variant, cancelAfter: Double?, timeout: Double = 60) -> VariantRun<GzipDetails> {
        let endpoint = FixtureEndpoint(baseURL: server.baseURL, server: server, knobs: server.knobs, timeoutSeconds: 10)
        var settings = GzipRun.Settings()
        settings.timeoutSeconds = timeout
        settings.cancelAfter = cancelAfter
        return MainActor.assumeIsolated {
            GzipRun.perform(variant, endpoint: endpoint, ledger: nil, settings: settings)
        }
    }

    /// The no-thread variant sees the tap only between two blocking downloads: it is asked to
    /// show and send nothing after it, not to stop within 1 s.
    func problems(_ run: VariantRun<GzipDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread, requestsAtOnce: XMLAPIs.all.count)
    }
}

final class Lesson04CancelTests: Lesson04CancelCase {
    /// Item 4 of the audit: with the answers in hand (downloaded, being parsed, on their way to
    /// main) when the tap comes, no row is added after it.
    func testACancelWithAnswersInHandAddsNoRow() {
        server.knobs.bandwidthBytesPerSecond = 0  // unlimited: the three answers come in together
        server.knobs.latencySeconds = 0.2
        for variant in [Variant.threaded, .async] {
            for at in [0.2, 0.22] {
                let run = run(variant, cancelAfter: at)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at \(at) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson04CancelSlowTests: Lesson04CancelCase {
    /// Random cancel points over the whole run: before the first request, mid-identity round,
    /// between the rounds, mid-gzip round.
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 04 random cancels", Variant.allCases, within: 0...1.2, run: { run($0, cancelAfter: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 6 of the audit: the threaded variant started its gzip round after the run had given
    /// up (requests 3 -> 6, rows added on a finished controller). A run that gives up mid-way
    /// leaves nothing running: no request reaches the server after it has returned.
    func testARunThatGivesUpLeavesNothingRunning() throws {
        // Two runs of 0.5 s and their ends: the slow tier.
        // The identity round takes over a second: the run gives up at 0.5 s, in its middle. A
        // variant that goes on would finish the round a moment later and start the gzip round.
        server.knobs.bandwidthBytesPerSecond = 40_000
        for variant in [Variant.threaded, .async] {
            let began = monotonicSeconds()
            let run = run(variant, cancelAfter: nil, timeout: 0.5)
            XCTAssertTrue(run.failure?.contains("gave up") == true, "\(variant): \(run.failure ?? "no failure")")
            // Counted from the moment it gave up (the harness then waits for the work to stop).
            let gaveUp = began + (run.seconds(.totalSeconds) ?? 0.5)
            // The gzip round would come here, within about a second of giving up (1.5 s is enough).
            _ = MainActor.assumeIsolated { MainLoop.run(timeout: 1.5) { false } }
            XCTAssertEqual(server.requestsReceived(since: gaveUp), 0, "\(variant): requests after giving up")
        }
    }
}
