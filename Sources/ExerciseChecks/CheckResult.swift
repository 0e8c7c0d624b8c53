import Foundation
import WorkshopCore

/// One check of an exercise, declared once, with the check, in both languages: its name and
/// what it wants. The English name is its identity (progress, the board, `failsAsShipped` in
/// `.meta/exercise.json`, the tests); the Japanese is what `check --lang ja` prints.
/// `workshop sync` writes the exercise's catalog entry and READMEs' check tables from these
/// declarations (the driver prints them with `--list-checks`), and a test keeps them equal.
public struct Check: Sendable, Codable, Equatable {
    public var name: String
    public var nameJapanese: String
    /// What a passing run shows, in a sentence.
    public var wanted: String
    public var wantedJapanese: String
    /// Which hint in the exercise's hints.md helps with this check; 0 when none does.
    public var hint: Int

    public init(_ name: String, ja nameJapanese: String, wanted: String, ja wantedJapanese: String, hint: Int) {
        self.name = name
        self.nameJapanese = nameJapanese
        self.wanted = wanted
        self.wantedJapanese = wantedJapanese
        self.hint = hint
    }

    /// The name in the checks' language.
    public var displayName: String { localized(name, ja: nameJapanese) }

    /// What it wants, in the checks' language.
    public var displayWanted: String { localized(wanted, ja: wantedJapanese) }

    /// What a run of this check found: passed or not, and what it saw (in the checks' language).
    public func result(_ passed: Bool, got: String) -> CheckResult {
        CheckResult(
            name: name, ja: nameJapanese, passed: passed, expected: displayWanted, got: got, hint: hint)
    }

    /// The same, when what it wants depends on the run (a figure measured first).
    public func result(_ passed: Bool, wanted: String, got: String) -> CheckResult {
        CheckResult(name: name, ja: nameJapanese, passed: passed, expected: wanted, got: got, hint: hint)
    }

    /// The check did not run: the program stopped first.
    public var notRun: CheckResult { CheckResult.notRun(name, ja: nameJapanese) }
}

/// The outcome of one check of a learner's exercise.
public struct CheckResult: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The check's English name: its identity.
    public var name: String
    /// Its name in the language the checks spoke, for printing.
    public var displayName: String
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

    /// A result named in both languages: `displayName` is the one the checks speak.
    public init(
        name: String, ja japaneseName: String, passed: Bool, expected: String, got: String, hint: Int,
        notRun: Bool = false
    ) {
        self.name = name
        self.displayName = localized(name, ja: japaneseName)
        self.passed = passed
        self.expected = expected
        self.got = got
        self.hint = hint
        self.notRun = notRun
    }

    /// A check the program did not get to.
    public static func notRun(_ name: String, ja japaneseName: String) -> CheckResult {
        CheckResult(
            name: name, ja: japaneseName, passed: false, expected: "",
            got: localized("not run: the program stopped before this check", ja: "実行されず: このチェックの前にプログラムが止まりました"),
            hint: 0, notRun: true)
    }

    enum CodingKeys: String, CodingKey { case name, displayName, passed, expected, got, hint, notRun }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        name = try values.decode(String.self, forKey: .name)
        displayName = try values.decodeIfPresent(String.self, forKey: .displayName) ?? name
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
