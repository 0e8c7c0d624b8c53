import Foundation
import WorkshopCore

/// The language of the checks' texts (each check's name, what it wanted, what it got), and
/// their Japanese, in `Resources/ja.lproj/Localizable.strings` (key: the English text).
///
/// A check program (the exercise's driver, compiled by swiftc against the ExerciseSupport
/// library and run by `ExerciseRunner` in a child process) finds this target's `Bundle.module`
/// like `workshop` does: SwiftPM's accessor looks next to the program, then in the build
/// folder the library was built in (an absolute path), where the check programs always run
/// from. It learns the language from `languageVariable`, which the runner always sets, so that
/// `workshop --lang ja` reaches it as much as `LANG=ja_JP.UTF-8`, and `--lang en` wins over a
/// Japanese locale. The English text stays the identity: a result's `name` is always the
/// English one (tests, progress and the board use it); `displayName` is for printing.
public enum CheckText {
    /// "ja" or "en": the language a check program speaks, set by the runner that starts it.
    public static let languageVariable = "WORKSHOP_CHECK_LANGUAGE"

    /// The runner's word, in a check program; nil anywhere else.
    static let asked: Language? = ProcessInfo.processInfo.environment[languageVariable].flatMap {
        Language(rawValue: $0)
    }

    /// The language of the checks' texts: the runner's in a check program, the program's own elsewhere.
    public static var language: Language { asked ?? Localized.language }

    /// `english` in `language` (itself when there is no entry). English never touches the
    /// bundle: SwiftPM's accessor stops the program when it finds none (a build folder moved
    /// after it was built), and English must work whatever happens to the resources.
    /// A check's name (or any of the checks' texts) in Japanese, as `check --lang ja` prints it:
    /// what the Japanese READMEs' check tables show.
    public static func japanese(_ english: String) -> String { string(english, in: .ja) }

    static func string(_ english: String, in language: Language) -> String {
        guard language != .en else { return english }
        return Localized.string(english, bundle: .module, in: language)
    }
}

/// A check's text in the checks' language.
func localized(_ english: String) -> String { CheckText.string(english, in: CheckText.language) }

/// A check's format in the checks' language, filled in (`%@`, `%d`, `%.2f`, `%1$@`).
func localized(format english: String, _ arguments: any CVarArg...) -> String {
    String(format: localized(english), locale: nil, arguments: arguments)
}

/// A count with its noun in the checks' language: in English exactly `counted` ("1 row",
/// "2 rows"), from `singular` or `plural` (formats with one `%d`); in Japanese `plural`'s entry
/// ("%d 行"), which has no plural.
func localized(count: Int, _ singular: String, _ plural: String) -> String {
    let language = CheckText.language
    let english = count == 1 ? singular : plural
    let format = language == .en ? english : CheckText.string(plural, in: language)
    return String(format: format, locale: nil, count)
}

extension CheckResult {
    /// The check's name in the checks' language, for printing (`name` stays the English one).
    public var displayName: String { localized(name) }
}

/// A text that is not the checks' own (a line a workload prints, a ThreadSanitizer report),
/// word for word: itself in English, in 「」 in Japanese.
func quoted(_ text: String) -> String { localized(format: "%@", text) }
