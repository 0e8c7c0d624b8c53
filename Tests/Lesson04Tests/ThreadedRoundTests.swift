import WorkshopCore
import WorkshopServer
import XCTest

@testable import Lesson04Kit

/// The threaded variant's round on main: a server that is down refuses all three APIs at the
/// same moment, and their callbacks reach main in any order. The run must name the same cause
/// every time (friends, the first in the article's order), as the no-thread and async variants
/// do; before `RoundAnswers`, it named whichever callback came first (seen under load: the CLI
/// test of an unreachable server got three different causes). XCTest runs each test on the
/// main thread; a `@MainActor` test class crashes XCTest on Linux, hence `assumeIsolated`.
final class ThreadedRoundTests: XCTestCase {
    static func outcome(_ api: XMLAPIs.API, _ failure: String? = nil, cancelled: Bool = false) -> APIOutcome {
        var outcome = APIOutcome(api: api, encoding: .identity)
        outcome.failure = failure
        outcome.wasCancelled = cancelled
        return outcome
    }

    /// Every order of three refusals names friends, and cancels the others once.
    func testThreeRefusalsInAnyOrderNameTheFirstInTheArticlesOrder() {
        MainActor.assumeIsolated {
            let apis = XMLAPIs.all
            for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
                let answers = RoundAnswers(expected: apis.count)
                var cancels = 0
                var shown: [APIOutcome] = []
                for index in order {
                    let refused = Self.outcome(apis[index], "\(apis[index].name): connection refused")
                    if let show = answers.add(refused, onFirstFailure: { cancels += 1 }) { shown.append(show) }
                }
                XCTAssertEqual(shown.map(\.api.name), [apis[0].name], "order \(order)")
                XCTAssertEqual(cancels, 1, "order \(order)")
            }
        }
    }

    /// One real failure; the other two come back cancelled by us: the real one is the cause.
    func testADownloadWeCancelledIsNotTheCause() {
        MainActor.assumeIsolated {
            let answers = RoundAnswers(expected: 3)
            let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
            XCTAssertNil(answers.add(Self.outcome(catalog, "catalog: HTTP 500"), onFirstFailure: {}))
            XCTAssertNil(answers.add(Self.outcome(friends, "friends: cancelled", cancelled: true), onFirstFailure: {}))
            let shown = answers.add(Self.outcome(statuses, "statuses: cancelled", cancelled: true), onFirstFailure: {})
            XCTAssertEqual(shown?.failure, "catalog: HTTP 500")
        }
    }

    /// Successes show at once; one after a failure does not (the run is failing).
    func testSuccessesShowAtOnceUntilSomethingFails() {
        MainActor.assumeIsolated {
            let answers = RoundAnswers(expected: 3)
            let (friends, statuses, catalog) = (XMLAPIs.all[0], XMLAPIs.all[1], XMLAPIs.all[2])
            XCTAssertEqual(answers.add(Self.outcome(friends), onFirstFailure: {})?.api.name, friends.name)
            XCTAssertNil(answers.add(Self.outcome(statuses, "statuses: timed out"), onFirstFailure: {}))
            XCTAssertEqual(answers.add(Self.outcome(catalog), onFirstFailure: {})?.failure, "statuses: timed out")
        }
    }
}
