import ExerciseChecks
import Foundation
import XCTest

extension XCTestCase {
    /// The package root (this file is Tests/ExerciseTests/LearnerFileCheck.swift).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `suite`'s checks on the learner's file. Untouched (its fingerprint is the shipped
    /// one), the file must fail at least one check, or the checks test nothing. Once the
    /// learner has changed it, it must pass them all (`swift test --filter ExerciseNN`).
    func assertLearnerFile(_ suite: any ExerciseCheckSuite.Type, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = Self.packageRoot.appendingPathComponent(suite.exerciseFile).path
        let fingerprint = try XCTUnwrap(ShippedFile.fingerprint(of: path), "cannot read \(path)", file: file, line: line)
        let results = suite.runLearner()
        let report = results.map(\.description).joined(separator: "\n")
        if fingerprint == suite.shippedFingerprint {
            XCTAssertTrue(results.contains { !$0.passed }, "exercise \(suite.id) as shipped passes every check:\n\(report)",
                          file: file, line: line)
        } else {
            print("Exercise \(suite.id) (\(suite.exerciseFile)):\n\(report)")
            XCTAssertTrue(results.allSatisfy(\.passed), "not yet:\n\(report)", file: file, line: line)
        }
    }
}
