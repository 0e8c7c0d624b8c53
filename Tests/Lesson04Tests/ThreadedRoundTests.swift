import Testing
import WorkshopCore
import WorkshopServer

@testable import Lesson04Kit

/// A round's answers on main (`RoundAnswers`, used by the threaded and the async variants): the
/// three APIs fail or succeed each at its own moment, and their answers reach main in any order.
/// The run must name the same cause every time: the first API in the article's order that really
/// failed. Before `RoundAnswers` the threaded variant named whichever callback came first; then,
/// with the first failure cancelling the other two at once, a redirect loop (all three fail,
/// each when it hits the redirect limit) named whichever hit it first, since an API cancelled
/// before it failed could not be the cause (seen under load: statuses instead of friends in 3 of
/// 10 runs; the async variant named catalog even on an idle machine). On the main actor, as
/// `RoundAnswers` is; nothing here waits for the main queue.
@MainActor @Suite struct ThreadedRoundTests {
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
    @Test func everyInterleavingOfThreeFailuresNamesTheFirstInTheArticlesOrder() {
        let orders = Self.permutations([0, 1, 2])
        #expect(orders.count == 6)
        for order in orders {
            let round = Self.play(order: order, failing: [0, 1, 2])
            #expect(round.shown.map(\.api.name) == [XMLAPIs.all[0].name], "order \(order)")
            #expect(round.shown.first?.failure == "friends: too many redirects", "order \(order)")
            #expect(round.cancels == 1, "order \(order)")
        }
    }

    /// Any set of failing APIs, in any order, with a cancel that stops the rest or comes too late
    /// for any of them: the cause is the first failing API in the article's order, and the
    /// successes before the first failure are shown at once.
    @Test func anyFailuresInAnyOrderWithAnyCancelNameTheFirstRealFailure() {
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
                    #expect(failures.map(\.api.name) == [expected], "\(what)")
                    #expect(failures.first?.wasCancelled == false, "\(what)")
                    #expect(round.cancels <= 1, "\(what)")
                    // Shown as success: only those that came before any failure.
                    let firstFailure = order.firstIndex { failing.contains($0) } ?? order.count
                    let before = order.prefix(firstFailure).map { apis[$0].name }
                    #expect(round.shown.filter { $0.failure == nil }.map(\.api.name) == before, "\(what)")
                    cases += 1
                }
            }
        }
        #expect(cases == 7 * 6 * 8)
    }

    /// A failure cancels the rest only once every API before it in the order has answered:
    /// until then, one of those may fail too, and would be the cause.
    @Test func aFailureCancelsTheRestOnceEveryAPIBeforeItHasAnswered() {
        let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
        var cancels = 0
        let answers = RoundAnswers()
        #expect(answers.add(Self.outcome(catalog, "catalog: HTTP 500")) { cancels += 1 } == nil)
        #expect(cancels == 0, "friends and statuses may still fail")
        #expect(answers.add(Self.outcome(friends)) { cancels += 1 } == nil, "the round is failing")
        #expect(cancels == 0, "statuses may still fail")
        #expect(answers.add(Self.outcome(statuses)) { cancels += 1 }?.failure == "catalog: HTTP 500")
        #expect(cancels == 1)

        // The first in the order fails: nothing can come before it, so the rest go at once.
        let early = RoundAnswers()
        var cancelled = 0
        #expect(early.add(Self.outcome(friends, "friends: HTTP 500")) { cancelled += 1 } == nil)
        #expect(cancelled == 1)
    }

    /// One real failure; the other two come back cancelled (the run itself was cancelled): the
    /// real one is the cause.
    @Test func aDownloadWeCancelledIsNotTheCause() {
        let answers = RoundAnswers()
        let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
        #expect(answers.add(Self.outcome(catalog, "catalog: HTTP 500")) {} == nil)
        #expect(answers.add(Self.outcome(friends, "friends: cancelled", cancelled: true)) {} == nil)
        let shown = answers.add(Self.outcome(statuses, "statuses: cancelled", cancelled: true)) {}
        #expect(shown?.failure == "catalog: HTTP 500")
    }

    /// Successes show at once; one after a failure does not (the run is failing).
    @Test func successesShowAtOnceUntilSomethingFails() {
        let answers = RoundAnswers()
        let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
        #expect(answers.add(Self.outcome(friends)) {}?.api.name == friends.name)
        #expect(answers.add(Self.outcome(statuses, "statuses: timed out")) {} == nil)
        #expect(answers.add(Self.outcome(catalog)) {}?.failure == "statuses: timed out")
    }
}
