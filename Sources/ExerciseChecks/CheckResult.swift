import Foundation
import WorkshopCore

/// The outcome of one check of a learner's exercise.
public struct CheckResult: Sendable, Codable, Equatable, CustomStringConvertible {
    public var name: String
    public var passed: Bool
    /// What the check wanted and what it saw, in a sentence each (`got` may have several lines).
    public var expected: String
    public var got: String
    /// Which hint in the exercise's hints.md helps with this check; 0 when none does (the
    /// compiler's message is the help).
    public var hint: Int

    public init(name: String, passed: Bool, expected: String, got: String, hint: Int) {
        self.name = name
        self.passed = passed
        self.expected = expected
        self.got = got
        self.hint = hint
    }

    public var description: String {
        passed
            ? "  ok    \(name)"
            : "  FAIL  \(name)\n        wanted: \(expected)\n        got:    \(got)\n        (hint \(hint) in hints.md)"
    }
}

/// FNV-1a of some bytes: how the workshop tells files apart (the core's, also used for ETags).
public func fingerprint(_ data: Data) -> String { fnv1a(Array(data)) }
