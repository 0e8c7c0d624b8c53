import Foundation
import Lesson01Kit
import LessonTestSupport
import WorkshopCore
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a cancel promises, in every variant: the work stops (within 1 s where the main thread
/// is free; the no-thread variant sees the tap only between its blocking calls), nothing is
/// shown after it, at most one request already on its way reaches the server after it, and
/// nothing crashes. The cancel points are random, from a printed seed (`SAKUSAKU_SEED=N` reruns).
///
/// What Lesson01CancelTests and Lesson01CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson01CancelCase: XCTestCase {
    var test: TestServer!

    override func setUpWithError() throws {
        test = try TestServer(latency: 0.05)
    }

    override func tearDown() {
        test.stop()
    }

    func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<AccountDetails> {
        var plan = AccountPlan(endpoint: test.endpoint)
        plan.itemCount = 6
        plan.slowItem = 1
        plan.slowItemLatencySeconds = 0.5
        var settings = AccountRun.Settings()
        settings.timeoutSeconds = 30
        settings.cancelAfter = cancelAfter
        return MainActor.assumeIsolated { AccountRun.perform(variant, plan: plan, settings: settings) }
    }

    /// Checks one cancelled run; the no-thread variant is not asked to stop within 1 s (its
    /// main thread is inside a blocking call when the tap comes), only to show and send nothing more.
    func problems(_ run: VariantRun<AccountDetails>, _ variant: Variant) -> [String] {
        // The items go two at a time (the default width): both may be on their way at the tap.
        run.cancelProblems(blocking: variant == .noThread, requestsAtOnce: 2)
    }
}

final class Lesson01CancelTests: Lesson01CancelCase {
    /// A cancel the moment the first answers are in hand: the answer has left the server and
    /// is on its way to the main thread. It is dropped, not shown.
    func testACancelWhileTheAnswerIsInHandShowsNothing() {
        for variant in [Variant.threaded, .async] {
            // The server answers login at about 0.05 s: cancel just after.
            let run = run(variant, cancelAfter: 0.06)
            XCTAssertEqual(problems(run, variant), [], "\(variant)")
            XCTAssertEqual(run.count(.rowsAfterCancel), 0, "\(variant)")
        }
    }

    /// Item 3 of the audit: a cancelled child task sent its token-bearing request anyway. With
    /// the cancel before the login's answer, no item or user request may reach the server.
    func testACancelBeforeTheTokenSendsNoTokenBearingRequest() {
        test.server.knobs.latencySeconds = 0.3
        for variant in [Variant.threaded, .async] {
            let before =
                test.server.stats.requests(under: "/api/items/") + test.server.stats.requests(under: "/api/user")
            let run = run(variant, cancelAfter: 0.1)
            XCTAssertEqual(problems(run, variant), [], "\(variant)")
            let after =
                test.server.stats.requests(under: "/api/items/") + test.server.stats.requests(under: "/api/user")
            XCTAssertEqual(after, before, "\(variant): a request with the token after the cancel")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson01CancelSlowTests: Lesson01CancelCase {
    /// Random cancel points across the whole run (0 to 1.2 s: before the login, mid-items,
    /// during the slow item, near the end), a few per variant.
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 01 random cancels", Variant.allCases, tries: 4, within: 0...1.2, run: { run($0, cancelAfter: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Items 1 and 2 of the audit, in the slow tier: 500 threaded runs cancelled at a random
    /// point (Linux freed a cancelled ParseOperation under the fetch it depended on: SIGSEGV),
    /// and 100 async runs cancelled at once (the session was invalidated under a child task
    /// that had still to build its request: "Session invalidated", a trap). A crash ends the
    /// test process, so passing means none happened.
    func testManyRandomCancelsCrashNothing() throws {
        test.server.knobs.latencySeconds = 0.01
        var random = SeededRandom.announced("lesson 01, 500 threaded cancels")
        let plan = { () -> AccountPlan in
            var plan = AccountPlan(endpoint: self.test.endpoint)
            plan.itemCount = 8
            plan.slowItem = nil
            return plan
        }()
        for round in 0..<500 {
            let at = Double.random(in: 0...0.08, using: &random)
            let ended = MainActor.assumeIsolated { () -> Bool in
                let session = HTTPFetcher(timeout: 10).session
                defer { session.invalidateAndCancel() }
                let controller = AccountController(title: "cancel", output: .silent, labels: plan.labels)
                let flow = ThreadedAccount(width: 3, session: session)
                flow.start(plan, controller: controller)
                MainLoop.run(timeout: at) { false }  // the run goes on for a random while
                controller.cancel()
                return MainLoop.run(timeout: 10) { !controller.isWorkRunning }
            }
            XCTAssertTrue(ended, "round \(round): the queue did not empty (seed \(random.seed))")
        }
        for round in 0..<100 {
            let run = run(.async, cancelAfter: Double.random(in: 0...0.03, using: &random))
            XCTAssertNil(run.failure, "round \(round)")
        }
    }
}
