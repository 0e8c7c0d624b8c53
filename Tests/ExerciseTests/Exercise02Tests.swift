import ExerciseChecks
import Foundation
import XCTest

/// Exercise 02's checks, three ways:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (proves the checks can fail);
/// - once the learner has changed the file, it must pass them all (the learner's command:
///   `swift test --filter Exercise02`).
final class Exercise02Tests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testReferenceSolutionPassesEveryCheck() {
        let results = Exercise02Checks.run {
            let thread = WorkerThreadSolution()
            thread.start()
            return Exercise02Checks.Worker(post: { thread.post($0) }, stop: { thread.stop(timeout: $0) })
        }
        for result in results { XCTAssertTrue(result.passed, result.description) }
    }

    func testExerciseFile() throws {
        let path = Self.packageRoot.appendingPathComponent(Exercise02Checks.exerciseFile).path
        let fingerprint = try XCTUnwrap(ShippedFile.fingerprint(of: path), "cannot read \(path)")
        let results = Exercise02Checks.runLearner()
        let report = results.map(\.description).joined(separator: "\n")
        if fingerprint == Exercise02Checks.shippedFingerprint {
            // Untouched: the checks must catch the shipped version, or they test nothing.
            XCTAssertTrue(results.contains { !$0.passed }, "the exercise as shipped passes every check:\n\(report)")
        } else {
            print("Exercise 02 (\(Exercise02Checks.exerciseFile)):\n\(report)")
            XCTAssertTrue(results.allSatisfy(\.passed), "not yet:\n\(report)")
        }
    }
}
