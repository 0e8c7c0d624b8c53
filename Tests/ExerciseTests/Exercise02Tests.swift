import ExerciseChecks
import Foundation
import XCTest

/// Exercise 02's checks, three ways:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (proves the checks can fail);
/// - once the learner has changed the file, it must pass them all (the learner's command:
///   `swift test --filter Exercise02`).
final class Exercise02Tests: XCTestCase {
    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise02Checks.run {
            let thread = WorkerThreadSolution()
            thread.start()
            return Exercise02Checks.Worker(post: { thread.post($0) }, stop: { thread.stop(timeout: $0) })
        }
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        try assertLearnerFile(Exercise02Checks.self)
    }
}
