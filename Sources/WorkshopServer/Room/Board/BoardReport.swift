import Foundation
import WorkshopCore

/// What `workshop check` tells the room's board about one check: which exercise, whether it
/// passed, the first failing check's id, the time spent on the exercise and the run's worst
/// freeze. Never the learner's code.
public struct BoardReport: Codable, Sendable, Equatable {
    /// Made by the sender once per check: a report sent again (its first answer was lost) is
    /// recognised and kept once.
    public var id: String?
    public var exercise: String
    public var passed: Bool
    /// The id of the first check that failed (`BoardCheck.id(for:)`; nil when it passed): the
    /// board names it from its own catalog, in its own language.
    public var check: String?
    /// The English name of that check, as `workshop` sent it before reports carried `check`
    /// (and still sends it, for a board from before): the board takes it only to make the id.
    public var failingCheck: String?
    /// Seconds since the learner started the exercise.
    public var secondsSpent: Double
    /// The main thread's longest freeze in the run, when the exercise's checks measure it.
    public var worstFreezeSeconds: Double?
    /// How long before sending the check ran: a report that could not be sent goes again with
    /// the next check, and the board places it by this, not by the clocks of two machines.
    public var ageSeconds: Double

    public init(
        id: String? = nil, exercise: String, passed: Bool, check: String? = nil, failingCheck: String? = nil,
        secondsSpent: Double, worstFreezeSeconds: Double? = nil, ageSeconds: Double = 0
    ) {
        self.id = id
        self.exercise = exercise
        self.passed = passed
        self.check = check
        self.failingCheck = failingCheck
        self.secondsSpent = secondsSpent
        self.worstFreezeSeconds = worstFreezeSeconds
        self.ageSeconds = ageSeconds
    }
}

/// One request to `POST /board/report`: the room code, the learner's name and their reports
/// (the new one and any that could not be sent before). `POST /board/join` takes it with no reports.
public struct BoardBatch: Codable, Sendable, Equatable {
    public var code: String
    public var name: String
    public var reports: [BoardReport]

    public init(code: String, name: String, reports: [BoardReport]) {
        self.code = code
        self.name = name
        self.reports = reports
    }
}

/// Why the board will not take something, in a sentence for the person who sent it.
public struct BoardRefusal: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The limits on what a learner may send, checked by the CLI before sending (so `join` can say
/// what is wrong at once) and by the board on arrival (it trusts nothing it is sent).
public enum BoardRules {
    public static let maxNameCharacters = 24
    public static let maxNameBytes = 96
    public static let maxCheckCharacters = 120
    public static let maxExerciseCharacters = 8
    /// Reports in one request: the new one and those still waiting from earlier checks.
    public static let maxReportsPerBatch = 20
    /// A request body larger than this is refused before it is read as JSON.
    public static let maxBodyBytes = 8 * 1024
    static let maxSeconds = 30.0 * 24 * 3600
    static let maxAgeSeconds = 7.0 * 24 * 3600

    /// The name as the board keeps it: spaces trimmed, Unicode-composed (NFC), so "が" typed two
    /// ways is one learner. Letters of any script, digits, punctuation, symbols and single
    /// spaces; no control or invisible formatting characters (they could disguise a name).
    public static func name(_ raw: String) throws(BoardRefusal) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        guard !name.isEmpty else { throw BoardRefusal("the name is empty") }
        guard name.count <= maxNameCharacters, name.utf8.count <= maxNameBytes else {
            throw BoardRefusal("the name is too long: at most \(maxNameCharacters) characters")
        }
        if let bad = name.unicodeScalars.first(where: { !allowedInName($0) }) {
            let code = String(bad.value, radix: 16, uppercase: true)
            throw BoardRefusal(
                "the name may hold letters, digits, punctuation and single spaces, not U+\(code)")
        }
        guard !name.contains("  ") else { throw BoardRefusal("the name may not hold two spaces in a row") }
        return name
    }

    static func allowedInName(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:  // controls, format characters (bidi overrides, zero width), other spaces, unassigned
            return false
        }
    }

    /// An exercise id: ASCII letters and digits, such as the ids under Exercises/.
    public static func exercise(_ id: String) throws(BoardRefusal) -> String {
        guard (1...maxExerciseCharacters).contains(id.count),
            id.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else { throw BoardRefusal("an exercise id is 1 to \(maxExerciseCharacters) ASCII letters and digits") }
        return id
    }

    /// A check's id: what `BoardCheck.id(for:)` makes of a name.
    public static func checkId(_ id: String) throws(BoardRefusal) -> String {
        guard BoardCheck.isId(id) else {
            throw BoardRefusal(
                "a check's id is 1 to \(BoardCheck.maxIdCharacters) lower-case ASCII letters, digits and single dashes")
        }
        return id
    }

    /// A check's name: one line of printable text.
    public static func check(_ name: String) throws(BoardRefusal) -> String {
        guard name.count <= maxCheckCharacters else {
            throw BoardRefusal("a check's name is at most \(maxCheckCharacters) characters")
        }
        guard name.unicodeScalars.allSatisfy({ $0 == " " || allowedInName($0) }) else {
            throw BoardRefusal("a check's name is one line of printable text")
        }
        return name
    }

    /// A report as the board keeps it, or why it will not.
    public static func report(_ report: BoardReport) throws(BoardRefusal) -> BoardReport {
        var checked = report
        checked.exercise = try exercise(report.exercise)
        if let id = report.id {
            guard (1...64).contains(id.count),
                id.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "-" || CharacterSet.alphanumerics.contains($0)) })
            else { throw BoardRefusal("a report's id is 1 to 64 ASCII letters, digits and dashes") }
        }
        // The board keeps the check's id and no name: what it shows comes from its catalog.
        // A report from an older `workshop` names the check only: its id is made from the name.
        // The name is checked all the same: a request with a malformed one is refused.
        let name = try report.failingCheck.map { (name: String) throws(BoardRefusal) in try check(name) }
        checked.failingCheck = nil
        if report.passed {
            checked.check = nil
        } else if let id = report.check {
            checked.check = try checkId(id)
        } else if let name {
            let id = BoardCheck.id(for: name)
            checked.check = id.isEmpty ? nil : id
        }
        guard report.secondsSpent.isFinite, report.ageSeconds.isFinite,
            report.worstFreezeSeconds.map(\.isFinite) ?? true
        else { throw BoardRefusal("times must be finite numbers of seconds") }
        checked.secondsSpent = min(max(report.secondsSpent, 0), maxSeconds)
        checked.ageSeconds = min(max(report.ageSeconds, 0), maxAgeSeconds)
        checked.worstFreezeSeconds = report.worstFreezeSeconds.map { min(max($0, 0), 3600) }
        return checked
    }
}

/// The room code: six characters a person reads off a screen and types without confusion (no
/// 0/O, 1/I/L). Typed in any case, with or without the dash or spaces.
public enum RoomCode {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The fewest characters a code has: 31^6, about 900 million codes, against the board's
    /// limit on wrong codes (see `RoomBoard.Settings.wrongCodeBurst`).
    public static let minimumLength = 6

    /// The code as the board compares it: upper case, no dashes or spaces; nil when it cannot be a
    /// code (shorter than 6, longer than 12, or a character not in the alphabet).
    public static func normalized(_ text: String) -> String? {
        let code = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard (minimumLength...12).contains(code.count), code.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return code
    }
}
