import Foundation
import WorkshopCore

/// The outcome of one check of a learner's exercise.
public struct CheckResult: Sendable, CustomStringConvertible {
    public var name: String
    public var passed: Bool
    /// What the check wanted and what it saw, in a sentence each.
    public var expected: String
    public var got: String
    /// Which hint in the exercise's hints.md helps with this check.
    public var hint: Int

    public var description: String {
        passed ? "  ok    \(name)" : "  FAIL  \(name)\n        wanted: \(expected)\n        got:    \(got)\n        (hint \(hint) in hints.md)"
    }
}

/// Identifies an exercise file as shipped, so tests know whether the learner has touched it.
public enum ShippedFile {
    /// FNV-1a of the file's bytes; nil when the file cannot be read.
    public static func fingerprint(of path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return fnv1a(Array(data))  // the core's FNV-1a, also used for ETags
    }
}

/// What every exercise's checks provide, so tests and the `workshop` CLI can treat them alike.
public protocol ExerciseCheckSuite {
    /// "03": the lesson number, or another two-character id for exercises not tied to a lesson.
    static var id: String { get }
    static var title: String { get }
    /// The exercise's folder, e.g. "Exercises/03-icons-off-main" (README.md and hints.md live there).
    static var directory: String { get }
    /// The file the learner edits, relative to the package root.
    static var exerciseFile: String { get }
    /// `ShippedFile.fingerprint` of `exerciseFile` as shipped.
    static var shippedFingerprint: String { get }
    /// Runs every check against the learner's file. Call on the main thread.
    static func runLearner() -> [CheckResult]
}
