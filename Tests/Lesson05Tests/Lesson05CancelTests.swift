import Lesson05Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// What a cancel promises in lesson 05: once the user cancels the launch, no request is sent,
/// no query run for it, and no order shown, even when the orders were downloaded or parsed a
/// moment before the tap. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N`).
///
/// What Lesson05CancelTests and Lesson05CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson05CancelCase: XCTestCase {
    var server: TestServer!
    var setup: ShopSetup!
    static let latency = 0.2

    override func setUpWithError() throws {
        server = try TestServer(latency: Self.latency)
        server.server.knobs.maxAgeSeconds = 300
        setup = try ShopSetup.prepare(endpoint: server.endpoint, products: 1_000, orders: 600)
        setup.launchTimeoutSeconds = 30
    }

    override func tearDown() {
        server.stop()
        setup.scratch.tearDown()
    }

    func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<ShopDetails> {
        let setup = setup!
        return MainActor.assumeIsolated { ShopRun.perform(variant, setup: setup, cancelAfter: cancelAfter) }
    }

    /// The no-thread variant sees the tap only between its blocking steps: it is asked to show
    /// and send nothing after it, not to stop within 1 s.
    func problems(_ run: VariantRun<ShopDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread)
    }
}

final class Lesson05CancelTests: Lesson05CancelCase {
    /// Item 4 of the audit: the async launch parsed the orders and showed 12 rows after the
    /// cancel. Cancels just after the orders' answer is in (the parse under way or done):
    /// nothing is shown.
    func testACancelWithTheOrdersInHandShowsNothing() {
        for variant in [Variant.threaded, .async] {
            for offset in [0.0, 0.02] {
                let run = run(variant, cancelAfter: Self.latency + offset)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at +\(offset) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson05CancelSlowTests: Lesson05CancelCase {
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 05 random cancels", Variant.allCases, within: 0...0.5, run: { run($0, cancelAfter: $1) },
            problems: { run, variant in
                // A cancelled launch ends the variant: no relaunch sends anything after it.
                let relaunched = run.seconds(.cancelHandledSeconds) != nil && run.details.launches.count != 1
                return problems(run, variant) + (relaunched ? ["\(variant): launched again after a cancel"] : [])
            })
        XCTAssertEqual(found, [])
    }
}
