import ExerciseChecks
import Foundation
import XCTest

/// Exercise 04's checks, three ways:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (proves the checks can fail);
/// - once the learner has changed the file, it must pass them all (the learner's command:
///   `swift test --filter Exercise04`).
final class Exercise04Tests: XCTestCase {
    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise04Checks.run(headers: GzipByHandSolution.requestHeaders(acceptGzip:),
                                           decode: GzipByHandSolution.decodedBody(of:))
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        try assertLearnerFile(Exercise04Checks.self)
    }
}
