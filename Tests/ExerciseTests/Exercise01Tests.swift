import ExerciseChecks
import Exercise01
import Foundation
import WorkshopCore
import XCTest

/// Exercise 01's checks, three ways (see Exercise03Tests): the reference passes them all;
/// the file as shipped fails at least one; a changed file must pass them all
/// (the learner's command: `swift test --filter Exercise01`).
final class Exercise01Tests: XCTestCase {
    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise01Checks.run(makeStep: { ParseStepSolution(source: $0, parse: $1) },
                                           output: { ($0 as? ParseStepSolution<AccountProfile>)?.output })
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        try assertLearnerFile(Exercise01Checks.self)
    }
}
