import Foundation
import WorkshopCore

/// The language of the checks' texts, and the texts themselves: each written once, where the
/// check is, in English and in Japanese (`localized("...", ja: "...")`). A check program has
/// no table to find and no resource bundle to load: what it says travels with its code.
///
/// A check program (the exercise's driver, compiled by swiftc with the exercise's checks and
/// the learner's files, and run by `ExerciseRunner` in a child process) learns the language
/// from `languageVariable`, which the runner always sets, so that `workshop --lang ja` reaches
/// it as much as `LANG=ja_JP.UTF-8`, and `--lang en` wins over a Japanese locale. A check's
/// English name stays its identity (tests, progress and the board use it); `displayName`
/// is for printing.
public enum CheckText {
    /// "ja" or "en": the language a check program speaks, set by the runner that starts it.
    public static let languageVariable = "WORKSHOP_CHECK_LANGUAGE"

    /// The runner's word, in a check program; nil anywhere else.
    static let asked: Language? = ProcessInfo.processInfo.environment[languageVariable].flatMap {
        Language(rawValue: $0)
    }

    /// The language of the checks' texts: the runner's in a check program, the program's own elsewhere.
    public static var language: Language { asked ?? Localized.language }
}

/// A check's text in the checks' language.
public func localized(_ english: String, ja japanese: String) -> String {
    CheckText.language == .ja ? japanese : english
}

/// A check's format in the checks' language, filled in (`%@`, `%d`, `%.2f`, `%1$@`).
public func localized(format english: String, ja japanese: String, _ arguments: any CVarArg...) -> String {
    String(format: localized(english, ja: japanese), locale: nil, arguments: arguments)
}

/// A count with its noun: in English `singular` or `plural` (formats with one `%d`: "1 row",
/// "2 rows"), in Japanese `japanese`, which has no plural ("%d 行").
public func localized(count: Int, _ singular: String, _ plural: String, ja japanese: String) -> String {
    String(format: localized(count == 1 ? singular : plural, ja: japanese), locale: nil, count)
}

/// A text that is not the checks' own (a line a workload prints, a ThreadSanitizer report),
/// word for word: itself in English, in 「」 in Japanese.
public func quoted(_ text: String) -> String { localized(text, ja: "「\(text)」") }
