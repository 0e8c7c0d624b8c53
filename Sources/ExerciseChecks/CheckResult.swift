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
    /// The program stopped (a crash, a hang) before it got to this check: it neither passed
    /// nor failed, and it is not counted as a failure.
    public var notRun: Bool

    public init(name: String, passed: Bool, expected: String, got: String, hint: Int, notRun: Bool = false) {
        self.name = name
        self.passed = passed
        self.expected = expected
        self.got = got
        self.hint = hint
        self.notRun = notRun
    }

    /// A check the program did not get to.
    public static func notRun(_ name: String) -> CheckResult {
        CheckResult(
            name: name, passed: false, expected: "", got: localized("not run: the program stopped before this check"),
            hint: 0,
            notRun: true)
    }

    enum CodingKeys: String, CodingKey { case name, passed, expected, got, hint, notRun }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        name = try values.decode(String.self, forKey: .name)
        passed = try values.decode(Bool.self, forKey: .passed)
        expected = try values.decode(String.self, forKey: .expected)
        got = try values.decode(String.self, forKey: .got)
        hint = try values.decode(Int.self, forKey: .hint)
        notRun = try values.decodeIfPresent(Bool.self, forKey: .notRun) ?? false
    }

    public var description: String {
        if notRun { return "  --    \(name) (not run)" }
        return passed
            ? "  ok    \(name)"
            : "  FAIL  \(name)\n        wanted: \(expected)\n        got:    \(got)\n        (hint \(hint) in hints.md)"
    }
}
