import ExerciseChecks
import Foundation
import XCTest

/// Exercise 03's checks, three ways:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (proves the checks can fail);
/// - once the learner has changed the file, it must pass them all (the learner's command:
///   `swift test --filter Exercise03`).
final class Exercise03Tests: XCTestCase {
    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise03Checks.run(IconLoaderSolution.loadIcons)
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        try assertLearnerFile(Exercise03Checks.self)
    }
}
