import ArgumentParser
import Foundation

/// The language the programs speak: English, or Japanese for the Japanese developers the
/// articles were written for. `lessonNN`, `workshop` and `fixture-server` decide it the same way.
public enum Language: String, CaseIterable, ExpressibleByArgument, Sendable {
    case en
    case ja

    /// Decided once per run, before anything prints: `--lang` wins, then the locale.
    /// A `let`, so every thread reads the same value and nothing needs a lock.
    public static let current = detect(
        arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)

    /// `--lang en|ja` when the command line gives it (nil when it does not). Read from the raw
    /// arguments, before the parser, so that `--help` and the parser's own errors can follow it.
    public static func asked(in arguments: [String]) -> Language? {
        var asked: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--lang", index + 1 < arguments.count { asked = arguments[index + 1] }
            if argument.hasPrefix("--lang=") { asked = String(argument.dropFirst("--lang=".count)) }
        }
        return asked.flatMap { Language(rawValue: $0.lowercased()) }
    }

    /// `--lang en|ja` when given; else the locale (LC_ALL, then LC_MESSAGES, then LANG: the
    /// first one set decides, as POSIX programs do) when it starts with "ja"; else English.
    public static func detect(arguments: [String], environment: [String: String]) -> Language {
        if let language = asked(in: arguments) { return language }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return value.lowercased().hasPrefix("ja") ? .ja : .en
            }
        }
        return .en
    }
}

/// Foundation's localization, read the one way that works alike on Linux and macOS.
///
/// Each target that speaks keeps `Resources/ja.lproj/Localizable.strings` (Apple's convention:
/// the key is the English text, the value its Japanese; format specifiers in the same order, or
/// positional `%1$@` where Japanese word order needs it), processed by SwiftPM into the
/// target's `Bundle.module`. English needs no table: the key is the text.
///
/// Why not `NSLocalizedString` or `String(localized:)`: corelibs Foundation picks the
/// localization from the bundle's development region and ignores `LANG`, and
/// `String(localized:bundle:)` is not available there (Lessons/linux-notes.md has the
/// measurements). So the table is found with `Bundle.path(forResource:ofType:inDirectory:
/// forLocalization:)` and read with `PropertyListSerialization` (the old-style `"key" = "value";` format), both of which work on both.
public enum Localized {
    /// What the program speaks now. Starts as `Language.current`; a lesson with `--json`
    /// switches to English, because the JSON document (takeaway included) is an API.
    /// Behind a lock because it is read from any thread (a variant's queues build texts too).
    private static let state = Locked(State(language: Language.current))

    private struct State {
        var language: Language
        /// Tables already read, by bundle path and language: each file is read once.
        var tables: [String: [String: String]] = [:]
    }

    /// The language texts are translated into from now on.
    public static var language: Language { state.withLock { $0.language } }

    /// Speaks `language` from now on (`--json`: English, whatever the locale says).
    public static func use(_ language: Language) { state.withLock { $0.language = language } }

    /// `english` in the current language: its entry in `bundle`'s `<lang>.lproj/Localizable.strings`,
    /// or `english` itself when the language is English or the table has no such entry.
    public static func string(_ english: String, bundle: Bundle) -> String {
        string(english, bundle: bundle, in: language)
    }

    /// `english` in `language` rather than the program's: for texts made for another process
    /// (a check program speaks the language of the `workshop` that started it).
    public static func string(_ english: String, bundle: Bundle, in language: Language) -> String {
        guard language != .en else { return english }
        return table(language, in: bundle)[english] ?? english
    }

    /// `english` translated, then formatted with `arguments` (`%@`, `%d`, `%.2f`, `%1$@`).
    public static func format(_ english: String, bundle: Bundle, _ arguments: any CVarArg...) -> String {
        String(format: string(english, bundle: bundle), locale: nil, arguments: arguments)
    }

    private static func table(_ language: Language, in bundle: Bundle) -> [String: String] {
        let key = bundle.bundlePath + "|" + language.rawValue
        if let table = state.withLock({ $0.tables[key] }) { return table }
        var table: [String: String] = [:]
        if let path = bundle.path(
            forResource: "Localizable", ofType: "strings", inDirectory: nil, forLocalization: language.rawValue),
            let data = FileManager.default.contents(atPath: path),
            let read = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        {
            table = read
        }
        state.withLock { $0.tables[key] = table }
        return table
    }
}

/// One module's texts: its own `Resources/ja.lproj/Localizable.strings`, read in the program's
/// language. Each module that speaks declares it once, `let localized = LocalizedTexts { .module }`,
/// because `Bundle.module` is generated per module (internal to it); everything else is here.
public struct LocalizedTexts: Sendable {
    private let bundle: @Sendable () -> Bundle

    public init(_ bundle: @escaping @Sendable () -> Bundle) { self.bundle = bundle }

    /// `english` in the program's language (not a format: a `%` in it stays as it is).
    public func callAsFunction(_ english: String) -> String { Localized.string(english, bundle: bundle()) }

    /// `english` in the program's language, filled in (`%@`, `%d`, `%.2f`, `%1$@`).
    public func callAsFunction(_ english: String, _ arguments: any CVarArg...) -> String {
        String(format: Localized.string(english, bundle: bundle()), locale: nil, arguments: arguments)
    }

    /// The same, for call sites that say so.
    public func callAsFunction(format english: String, _ arguments: any CVarArg...) -> String {
        String(format: Localized.string(english, bundle: bundle()), locale: nil, arguments: arguments)
    }

    /// `english` in `language`, whatever the program speaks (a text made for another process).
    public func callAsFunction(_ english: String, in language: Language) -> String {
        Localized.string(english, bundle: bundle(), in: language)
    }
}

/// WorkshopCore's own texts (`Sources/WorkshopCore/Resources`).
let localized = LocalizedTexts { .module }
