import ExerciseChecks
import Foundation
import LessonTestSupport
import WorkshopCore
import WorkshopTools
import XCTest

/// The checks speak the learner's language: under a Japanese locale, `workshop check` prints
/// every check's name, what it wanted and what it got in Japanese (no English sentence), from
/// ExerciseChecks' `Resources/ja.lproj/Localizable.strings`; and that table has an entry, with
/// the same format specifiers, for every English text the checks hand to `localized`.
final class CheckTextJapaneseTests: XCTestCase {
    static let slowTier = ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1"
    /// Checked in the learner's suite: two of the lessons' own exercises (not a lettered second
    /// one), from the third on: a queue and gzip (the slow tier checks all the others).
    static var quick: [Exercise] {
        Array(Subject.all.filter { $0.lesson != nil && $0.id.last?.isNumber == true }.dropFirst(2).prefix(2))
    }

    static let sources = ExerciseRoot.builtFrom.appendingPathComponent("Sources/ExerciseChecks")

    /// The Japanese table, key: the English text.
    static func table() throws -> [String: String] {
        let path = sources.appendingPathComponent("Resources/ja.lproj/Localizable.strings").path
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path), path)
        let table = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        return try XCTUnwrap(table, "\(path) is not a strings file")
    }

    // MARK: - The table

    /// A string literal's text (no interpolation), as the code writes it, escapes read.
    static let literal = #""((?:[^"\\\n]|\\.)*)""#

    /// Every English text the checks translate: the literal right after `localized(`,
    /// `localized(format:`, the plural of `localized(count:`, the runner's `text(` and
    /// `text(format:`, and every check's name (literal names, and the catalog's) and what
    /// each exercise's driver uses (the catalog's, shown by the compile check).
    static func englishKeys() throws -> [String: String] {
        var keys: [String: String] = [:]
        let patterns = [
            #"\blocalized\(\s*(?:format:\s*)?"# + literal,
            #"\blocalized\(\s*count:[^"]*"# + literal + #",\s*"# + literal,
            #"\btext\(\s*(?:format:\s*)?"# + literal,
            #"CheckResult\(\s*name:\s*"# + literal,
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for pattern in patterns {
                let regex = try NSRegularExpression(pattern: pattern)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    // The last group: the plural of a count, else the only one.
                    let range = Range(match.range(at: match.numberOfRanges - 1), in: text)!
                    let key = unescaped(String(text[range]))
                    if !key.contains("\\(") { keys[key] = file }
                }
            }
        }
        for exercise in ExerciseCatalog.exercises {
            for name in exercise.checks { keys[name] = "the catalog's checks of \(exercise.id)" }
            keys[exercise.uses] = "the catalog's uses of \(exercise.id)"
        }
        for name in [ExerciseRunner.compileCheck, ExerciseRunner.finishCheck, ExerciseRunner.crashCheck] {
            keys[name] = "ExerciseRunner.swift"
        }
        return keys
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\\\\", with: "\\")
    }

    /// A format's conversions in argument order: "%1$@ %2$d" and "%@ %d" both give ["@", "d"].
    static func conversions(_ format: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"%(?:(\d+)\$)?[-+ 0#]*\d*(?:\.\d+)?(l{0,2}[@dfs])"#)
        var ordered: [(Int, String)] = []
        for (index, match) in regex.matches(in: format, range: NSRange(format.startIndex..., in: format)).enumerated() {
            let position = Range(match.range(at: 1), in: format).flatMap { Int(format[$0]) } ?? index + 1
            ordered.append((position, String(format[Range(match.range(at: 2), in: format)!])))
        }
        return ordered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    func testEveryCheckTextHasItsJapanese() throws {
        let table = try Self.table()
        let keys = try Self.englishKeys()
        XCTAssertGreaterThan(keys.count, 50, "the scan found the checks' texts")
        let missing = keys.keys.filter { table[$0] == nil }.sorted()
        XCTAssertEqual(missing, [], "no Japanese for: \(missing.map { "\($0) (\(keys[$0]!))" })")
        // No entry the checks no longer use.
        let unused = table.keys.filter { keys[$0] == nil }.sorted()
        XCTAssertEqual(unused, [], "entries no check uses")
    }

    func testTheJapaneseKeepsEveryFormatsArguments() throws {
        for (english, japanese) in try Self.table() {
            XCTAssertEqual(
                Self.conversions(japanese), Self.conversions(english), "\(english) = \(japanese): the same arguments")
            // Code in backticks (a command to run) is not a sentence.
            let prose = japanese.replacingOccurrences(of: "`[^`]*`", with: "``", options: .regularExpression)
            XCTAssertTrue(EnglishSentences.lines(in: prose).isEmpty, "English left in: \(japanese)")
            // Positional and plain specifiers do not mix in one format.
            let positional = japanese.contains("$")
            let plain = japanese.range(of: #"%[-+ 0#]*\d*(?:\.\d+)?[@df]"#, options: .regularExpression) != nil
            XCTAssertFalse(positional && plain, "mixed specifiers: \(japanese)")
        }
    }

    // MARK: - The checks' output

    func checkSpeaksJapanese(_ exercises: [Exercise]) throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        defer { workspace.remove() }
        for exercise in exercises {
            let id = exercise.id
            let check = try WorkshopBinary.run(["check", id], root: workspace.root, changes: ["LANG": "ja_JP.UTF-8"])
            XCTAssertEqual(check.status, 1, "\(id) as shipped fails: \(check.stdout)\(check.stderr)")
            XCTAssertTrue(check.stdout.contains("FAIL"), check.stdout)
            // The commands a line suggests (`swift run workshop hint`, its id and number) are not sentences.
            // Nor are the messages quoted word for word in 「」 (Swift's, Foundation's, SQLite's errors).
            let prose = check.stdout.replacingOccurrences(
                of: #"swift run [^\n]*"#, with: "", options: .regularExpression
            ).replacingOccurrences(of: "「[^」]*」", with: "「」", options: .regularExpression)
            XCTAssertEqual(EnglishSentences.lines(in: prose), [], "\(id): \(check.stdout)")
            // The English names are still the identity: the catalog's first check, in Japanese.
            let first = try XCTUnwrap(exercise.checks.first)
            XCTAssertFalse(check.stdout.contains(first), "\(id) prints \(first) in English: \(check.stdout)")
        }
    }

    func testTheShippedFilesFailInJapanese() throws {
        // The slow tier: `WorkshopJapaneseOutputTests` and `JapaneseModeTests` check in Japanese quick.
        try XCTSkipUnless(Self.slowTier, "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        try checkSpeaksJapanese(Self.quick)
    }

    func testEveryExerciseFailsInJapanese() throws {
        try XCTSkipUnless(Self.slowTier, "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        let quick = Set(Self.quick.map(\.id))
        try checkSpeaksJapanese(Subject.all.filter { !quick.contains($0.id) })
    }

    /// `--lang en` beats a Japanese locale in the check program too; `--lang ja` reaches it without one.
    func testTheLanguageFlagReachesTheCheckProgram() throws {
        // The slow tier: WorkshopJapaneseOutputTests checks with --lang ja and the locale quick.
        try XCTSkipUnless(Self.slowTier, "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        defer { workspace.remove() }
        let exercise = try XCTUnwrap(Self.quick.first)
        let failing = try XCTUnwrap(exercise.failsAsShipped.first)
        let english = try WorkshopBinary.run(
            ["check", exercise.id, "--lang", "en"], root: workspace.root, changes: ["LANG": "ja_JP.UTF-8"])
        XCTAssertTrue(english.stdout.contains("  FAIL  \(failing)\n        wanted: "), english.stdout)
        XCTAssertFalse(english.stdout.contains("期待"), english.stdout)
        let japanese = try WorkshopBinary.run(["check", exercise.id, "--lang", "ja"], root: workspace.root)
        let name = try XCTUnwrap(Self.table()[failing])
        XCTAssertTrue(japanese.stdout.contains("  FAIL  \(name)\n        期待:   "), japanese.stdout)
        XCTAssertFalse(japanese.stdout.contains("wanted:"), japanese.stdout)
    }
}
