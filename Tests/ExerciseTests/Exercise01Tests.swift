import ExerciseChecks
import Exercise01
import Foundation
import WorkshopCore
import XCTest

/// Exercise 01's checks, three ways (see Exercise03Tests): the reference passes them all;
/// the file as shipped fails at least one; a changed file must pass them all
/// (the learner's command: `swift test --filter Exercise01`).
final class Exercise01Tests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise01Checks.run(makeStep: { ParseStepSolution(source: $0, parse: $1) },
                                           output: { ($0 as? ParseStepSolution<AccountProfile>)?.output })
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        let path = Self.packageRoot.appendingPathComponent(Exercise01Checks.exerciseFile).path
        let fingerprint = try XCTUnwrap(ShippedFile.fingerprint(of: path), "cannot read \(path)")
        let results = Exercise01Checks.runLearner()
        let report = results.map(\.description).joined(separator: "\n")
        if fingerprint == Exercise01Checks.shippedFingerprint {
            // Untouched: the checks must catch the shipped version, or they test nothing.
            XCTAssertTrue(results.contains { !$0.passed }, "the exercise as shipped passes every check:\n\(report)")
        } else {
            print("Exercise 01 (\(Exercise01Checks.exerciseFile)):\n\(report)")
            XCTAssertTrue(results.allSatisfy(\.passed), "not yet:\n\(report)")
        }
    }
}
