import WorkshopCore
import WorkshopServer
import XCTest

@testable import Lesson04Kit

/// A round's answers on main (`RoundAnswers`, used by the threaded and the async variants): the
/// three APIs fail or succeed each at its own moment, and their answers reach main in any order.
/// The run must name the same cause every time: the first API in the article's order that really
/// failed. Before `RoundAnswers` the threaded variant named whichever callback came first; then,
/// with the first failure cancelling the other two at once, a redirect loop (all three fail,
/// each when it hits the redirect limit) named whichever hit it first, since an API cancelled
/// before it failed could not be the cause (seen under load: statuses instead of friends in 3 of
/// 10 runs; the async variant named catalog even on an idle machine). XCTest runs each test on
/// the main thread; a `@MainActor` test class crashes XCTest on Linux, hence `assumeIsolated`.
final class ThreadedRoundTests: XCTestCase {
    static func outcome(_ api: XMLAPIs.API, _ failure: String? = nil, cancelled: Bool = false) -> APIOutcome {
        var outcome = APIOutcome(api: api, encoding: .identity)
        outcome.failure = failure
        outcome.wasCancelled = cancelled
        return outcome
    }

    /// Every order of `items`.
    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index -> [[Int]] in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// What one simulated round showed and how often it cancelled.
    struct Round {
        var shown: [APIOutcome] = []
        var cancels = 0
    }

    /// A round as the network plays it: the APIs answer in `order`; each of `failing` fails for
    /// real, the others succeed. Once `RoundAnswers` cancels, an API that has not answered yet
    /// answers "cancelled", unless `cancelLate` holds it: then its own answer was already on its
    /// way (a cancel that comes too late to stop it).
    @MainActor
    static func play(order: [Int], failing: Set<Int>, cancelLate: Set<Int> = []) -> Round {
        let apis = XMLAPIs.all
        let answers = RoundAnswers()
        var round = Round()
        var cancelled = false
        for index in order {
            let api = apis[index]
            let outcome: APIOutcome
            if cancelled, !cancelLate.contains(index) {
                outcome = Self.outcome(api, "\(api.name): cancelled", cancelled: true)
            } else {
                outcome = Self.outcome(api, failing.contains(index) ? "\(api.name): too many redirects" : nil)
            }
            let show = answers.add(outcome) {
                round.cancels += 1
                cancelled = true
            }
            if let show { round.shown.append(show) }
        }
        return round
    }

    /// Every interleaving of the three failures (a redirect loop: all three fail, in any order)
    /// names friends, and cancels once.
    func testEveryInterleavingOfThreeFailuresNamesTheFirstInTheArticlesOrder() {
        MainActor.assumeIsolated {
            let orders = Self.permutations([0, 1, 2])
            XCTAssertEqual(orders.count, 6)
            for order in orders {
                let round = Self.play(order: order, failing: [0, 1, 2])
                XCTAssertEqual(round.shown.map(\.api.name), [XMLAPIs.all[0].name], "order \(order)")
                XCTAssertEqual(round.shown.first?.failure, "friends: too many redirects", "order \(order)")
                XCTAssertEqual(round.cancels, 1, "order \(order)")
            }
        }
    }

    /// Any set of failing APIs, in any order, with a cancel that stops the rest or comes too late
    /// for any of them: the cause is the first failing API in the article's order, and the
    /// successes before the first failure are shown at once.
    func testAnyFailuresInAnyOrderWithAnyCancelNameTheFirstRealFailure() {
        MainActor.assumeIsolated {
            let apis = XMLAPIs.all
            var cases = 0
            for mask in 1..<8 {
                let failing = Set((0..<3).filter { mask & (1 << $0) != 0 })
                let expected = apis[failing.min() ?? 0].name
                for order in Self.permutations([0, 1, 2]) {
                    for lateMask in 0..<8 {
                        let late = Set((0..<3).filter { lateMask & (1 << $0) != 0 })
                        let round = Self.play(order: order, failing: failing, cancelLate: late)
                        let what = "failing \(failing.sorted()), order \(order), late \(late.sorted())"
                        let failures = round.shown.filter { $0.failure != nil }
                        XCTAssertEqual(failures.map(\.api.name), [expected], what)
                        XCTAssertEqual(failures.first?.wasCancelled, false, what)
                        XCTAssertLessThanOrEqual(round.cancels, 1, what)
                        // Shown as success: only those that came before any failure.
                        let firstFailure = order.firstIndex { failing.contains($0) } ?? order.count
                        let before = order.prefix(firstFailure).map { apis[$0].name }
                        XCTAssertEqual(round.shown.filter { $0.failure == nil }.map(\.api.name), before, what)
                        cases += 1
                    }
                }
            }
            XCTAssertEqual(cases, 7 * 6 * 8)
        }
    }

    /// A failure cancels the rest only once every API before it in the order has answered:
    /// until then, one of those may fail too, and would be the cause.
    func testAFailureCancelsTheRestOnceEveryAPIBeforeItHasAnswered() {
        MainActor.assumeIsolated {
            let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
            var cancels = 0
            let answers = RoundAnswers()
            XCTAssertNil(answers.add(Self.outcome(catalog, "catalog: HTTP 500")) { cancels += 1 })
            XCTAssertEqual(cancels, 0, "friends and statuses may still fail")
            XCTAssertNil(answers.add(Self.outcome(friends)) { cancels += 1 }, "the round is failing")
            XCTAssertEqual(cancels, 0, "statuses may still fail")
            XCTAssertEqual(answers.add(Self.outcome(statuses)) { cancels += 1 }?.failure, "catalog: HTTP 500")
            XCTAssertEqual(cancels, 1)

            // The first in the order fails: nothing can come before it, so the rest go at once.
            let early = RoundAnswers()
            var cancelled = 0
            XCTAssertNil(early.add(Self.outcome(friends, "friends: HTTP 500")) { cancelled += 1 })
            XCTAssertEqual(cancelled, 1)
        }
    }

    /// One real failure; the other two come back cancelled (the run itself was cancelled): the
    /// real one is the cause.
    func testADownloadWeCancelledIsNotTheCause() {
        MainActor.assumeIsolated {
            let answers = RoundAnswers()
            let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
            XCTAssertNil(answers.add(Self.outcome(catalog, "catalog: HTTP 500")) {})
            XCTAssertNil(answers.add(Self.outcome(friends, "friends: cancelled", cancelled: true)) {})
            let shown = answers.add(Self.outcome(statuses, "statuses: cancelled", cancelled: true)) {}
            XCTAssertEqual(shown?.failure, "catalog: HTTP 500")
        }
    }

    /// Successes show at once; one after a failure does not (the run is failing).
    func testSuccessesShowAtOnceUntilSomethingFails() {
        MainActor.assumeIsolated {
            let answers = RoundAnswers()
            let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
            XCTAssertEqual(answers.add(Self.outcome(friends)) {}?.api.name, friends.name)
            XCTAssertNil(answers.add(Self.outcome(statuses, "statuses: timed out")) {})
            XCTAssertEqual(answers.add(Self.outcome(catalog)) {}?.failure, "statuses: timed out")
        }
    }
}
