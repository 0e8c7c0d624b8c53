import ExerciseChecks
import Foundation
import XCTest

/// Exercise 07's checks, three ways:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (proves the checks can fail);
/// - once the learner has changed the file, it must pass them all (the learner's command:
///   `swift test --filter Exercise07`).
final class Exercise07Tests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise07Checks.run(LineBreakerSolution.wrap)
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        let path = Self.packageRoot.appendingPathComponent(Exercise07Checks.exerciseFile).path
        let fingerprint = try XCTUnwrap(ShippedFile.fingerprint(of: path), "cannot read \(path)")
        let results = Exercise07Checks.runLearner()
        let report = results.map(\.description).joined(separator: "\n")
        if fingerprint == Exercise07Checks.shippedFingerprint {
            // Untouched: the checks must catch the shipped version, or they test nothing.
            XCTAssertTrue(results.contains { !$0.passed }, "the exercise as shipped passes every check:\n\(report)")
        } else {
            print("Exercise 07 (\(Exercise07Checks.exerciseFile)):\n\(report)")
            XCTAssertTrue(results.allSatisfy(\.passed), "not yet:\n\(report)")
        }
    }
}
