import ArgumentParser
import Foundation

/// The numbers a flag takes, declared once: its name and its bounds. `--help` shows the range
/// from here, `check(_:)` refuses a value outside it with a usage error (exit code 64) that
/// names the flag and the range in the program's language, and the lesson contract lists it
/// (a value below and one above, which the contract suite sees refused).
///
///     static let items = FlagRange("--items", 1...100)
///     @Option(Self.items, help: localized("Items to fetch after logging in"), valueName: "n")
///     var items = 6
///     func validate() throws { try Self.items.check(items) }
public struct FlagRange<Value: FlagNumber>: Sendable {
    /// "--items"
    public let flag: String
    public let lowest: Value
    /// nil: no upper bound ("0 or more").
    public let highest: Value?
    /// Whether the number is seconds (the error then says "between 0 and 30 seconds").
    public let seconds: Bool

    public init(_ flag: String, _ range: ClosedRange<Value>, seconds: Bool = false) {
        self.flag = flag
        lowest = range.lowerBound
        highest = range.upperBound
        self.seconds = seconds
    }

    public init(_ flag: String, _ range: PartialRangeFrom<Value>, seconds: Bool = false) {
        self.flag = flag
        lowest = range.lowerBound
        highest = nil
        self.seconds = seconds
    }

    /// The option's name for `@Option`: `--items` is `.customLong("items")`.
    public var name: NameSpecification { .customLong(String(flag.drop { $0 == "-" })) }

    public func contains(_ value: Value) -> Bool { value >= lowest && highest.map { value <= $0 } != false }

    /// Refuses a value outside the range (nil, a flag not given, passes), for `validate()`.
    public func check(_ value: Value?) throws {
        guard let value, !contains(value) else { return }
        throw ValidationError(refusal(value))
    }

    /// "--items must be between 1 and 100 (got 0)", "--bandwidth must be 0 or more (got -5)".
    public func refusal(_ value: Value, in language: Language = Localized.language) -> String {
        let got = value.flagText
        guard let highest else {
            let english =
                seconds ? "%1$@ must be %2$@ or more seconds (got %3$@)" : "%1$@ must be %2$@ or more (got %3$@)"
            return String(format: localized(english, in: language), flag, lowest.flagText, got)
        }
        let english =
            seconds
            ? "%1$@ must be between %2$@ and %3$@ seconds (got %4$@)" : "%1$@ must be between %2$@ and %3$@ (got %4$@)"
        return String(format: localized(english, in: language), flag, lowest.flagText, highest.flagText, got)
    }

    /// "1-100" or "0 or more" (in Japanese "1〜100", "0 以上"), as `--help` shows it.
    public func rangeText(in language: Language = Localized.language) -> String {
        guard let highest else { return String(format: localized("%@ or more", in: language), lowest.flagText) }
        return String(format: localized("%1$@-%2$@", in: language), lowest.flagText, highest.flagText)
    }

    /// The flag's help: `text`, then its range in parentheses with a `note` and the default a
    /// flag without a value falls back to (`shown`): "Items to fetch after logging in (1-100).",
    /// "Seconds the fixture server waits before each response (0-60; default 0.15)." `text` and
    /// `note` come translated (from the module that declares the flag); the rest is done here.
    public func help(
        _ text: String, note: String? = nil, default shown: Value? = nil, valueName: String,
        visibility: ArgumentVisibility = .default
    ) -> ArgumentHelp {
        let parts = [rangeText(), note, shown.map { localized(format: "default %@", $0.flagText) }].compactMap { $0 }
        let inside = parts.joined(separator: localized("; "))
        return ArgumentHelp(
            localized(format: "%1$@ (%2$@).", text, inside), valueName: valueName, visibility: visibility)
    }

    /// The flag in the lesson contract: its range, and two values it refuses (just below and
    /// just above; a flag with no upper bound, just below).
    public var contract: LessonContract.Flag {
        let refused = [lowest.stepped(-1)] + (highest.map { [$0.stepped(1)] } ?? [])
        return LessonContract.Flag(
            name: flag, refused: refused.map(\.flagText),
            range: .init(lowest: lowest.flagText, highest: highest?.flagText, seconds: seconds))
    }
}

extension FlagRange where Value == Double {
    /// The range the contract lists, read back (the contract suite checks a program's texts with it).
    public init?(_ flag: String, _ range: LessonContract.Flag.Range) {
        guard let lowest = Double(range.lowest) else { return nil }
        self.flag = flag
        self.lowest = lowest
        highest = range.highest.flatMap(Double.init)
        seconds = range.seconds
    }
}

/// A flag naming a file the program writes (`--svg FILE`, `--html FILE`): its folder must exist,
/// or `validate()` refuses it with a usage error that names the flag.
public enum OutputFileFlag {
    public static func check(_ flag: String, _ path: String?) throws {
        guard let path else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError(
                localized(format: "%1$@: the folder %2$@ does not exist (got '%3$@')", flag, folder, path))
        }
    }
}

/// What a `FlagRange` holds: `Int` or `Double`.
public protocol FlagNumber: Comparable, Sendable, ExpressibleByArgument {
    /// The number as a person types it: "6", "0.15", "300".
    var flagText: String { get }
    /// One step up or down (`stepped(-1)`: the first value below a range starting here).
    func stepped(_ steps: Int) -> Self
}

extension Int: FlagNumber {
    public var flagText: String { String(self) }
    public func stepped(_ steps: Int) -> Int { self + steps }
}

extension Double: FlagNumber {
    public var flagText: String { formattedSeconds }
    public func stepped(_ steps: Int) -> Double { self + Double(steps) }
}

extension Option {
    /// `@Option(range, help: ...) var items = 6`: the flag's name and help from its range, and
    /// a negative number read as a value (`--items -1` is a range error, not "missing value").
    public init(
        wrappedValue: Value, _ range: FlagRange<Value>, help text: String, note: String? = nil, valueName: String,
        visibility: ArgumentVisibility = .default
    ) where Value: FlagNumber {
        self.init(
            wrappedValue: wrappedValue, name: range.name, parsing: .unconditional,
            help: range.help(text, note: note, valueName: valueName, visibility: visibility))
    }

    /// The same for a flag that may be left out (`var latency: Double?`); `shown` is the default
    /// the program then uses, for `--help`.
    public init<Number: FlagNumber>(
        _ range: FlagRange<Number>, help text: String, note: String? = nil, default shown: Number? = nil,
        valueName: String
    ) where Value == Number? {
        self.init(
            name: range.name, parsing: .unconditional,
            help: range.help(text, note: note, default: shown, valueName: valueName))
    }
}
