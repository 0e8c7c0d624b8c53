import ExerciseChecks
import Foundation
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopTools

/// The checks speak the learner's language: under a Japanese locale, `workshop check` prints
/// every check's name, what it wanted and what it got in Japanese (no English sentence). Each
/// text is written once, where the check is, in both languages (`localized("...", ja: "...")`,
/// `Check(_:ja:wanted:ja:hint:)`), in `Sources/ExerciseChecks` and each exercise's `.meta`:
/// every such text has its Japanese, with the same format specifiers.
///
/// What CheckTextJapaneseTests and CheckTextJapaneseSlowTests (the slow tier) share.
enum CheckTextJapanese {
    /// Checked in the learner's suite: two of the lessons' own exercises (not a lettered second
    /// one), from the third on: a queue and gzip (the slow tier checks all the others).
    static var quick: [Exercise] {
        Array(Subject.all.filter { $0.lesson != nil && $0.id.last?.isNumber == true }.dropFirst(2).prefix(2))
    }

    static let root = ExerciseRoot.builtFrom

    /// The Swift files the checks' texts are written in: the drivers' library and every
    /// exercise's `.meta/*.swift`, by path from the package root.
    static func checkSources() throws -> [(path: String, text: String)] {
        var paths = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources/ExerciseChecks").path
        ).filter { $0.hasSuffix(".swift") }.map { "Sources/ExerciseChecks/" + $0 }
        for exercise in ExerciseCatalog.exercises {
            paths += exercise.checkSources.keys.map { exercise.metaDirectory + "/" + $0 }
            paths.append(exercise.metaDirectory + "/driver.swift")
        }
        return try paths.sorted().map {
            ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// A string literal's text (no interpolation), as the code writes it, escapes read.
    static let literal = #""((?:[^"\\\n]|\\.)*)""#

    /// Every pair of texts the checks write: (English, Japanese, where).
    static func pairs() throws -> [(english: String, japanese: String, place: String)] {
        var pairs: [(String, String, String)] = []
        let patterns = [
            // localized("EN", ja: "JA"), localized(format: "EN", ja: "JA", ...)
            #"\blocalized\(\s*(?:format:\s*)?"# + literal + #",\s*ja:\s*"# + literal,
            // localized(count: n, "SINGULAR", "PLURAL", ja: "JA")
            #"\blocalized\(\s*count:[^"]*"# + literal + #",\s*"# + literal + #",\s*ja:\s*"# + literal,
            // CheckResult(name: "EN", ja: "JA", ...), Check("EN", ja: "JA", wanted: "EN", ja: "JA", ...)
            #"CheckResult\(\s*name:\s*"# + literal + #",\s*ja:\s*"# + literal,
            #"\bCheck\(\s*"# + literal + #",\s*ja:\s*"# + literal,
            #"wanted:\s*"# + literal + #",\s*ja:\s*"# + literal,
        ]
        for (path, text) in try checkSources() {
            for pattern in patterns {
                let regex = try NSRegularExpression(pattern: pattern)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    // The last two groups: the (plural) English and its Japanese.
                    let english = Range(match.range(at: match.numberOfRanges - 2), in: text)!
                    let japanese = Range(match.range(at: match.numberOfRanges - 1), in: text)!
                    let line = text[..<english.lowerBound].filter { $0 == "\n" }.count + 1
                    pairs.append((String(text[english]), String(text[japanese]), "\(path):\(line)"))
                }
            }
        }
        return pairs
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

    // MARK: - The checks' output

    static func checkSpeaksJapanese(_ exercises: [Exercise]) async throws {
        let workspace = try TestWorkspace()
        for exercise in exercises {
            let id = exercise.id
            let check = try await WorkshopBinary.run(
                ["check", id], root: workspace.root, changes: ["LANG": "ja_JP.UTF-8"])
            #expect(check.status == 1, "\(id) as shipped fails: \(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("FAIL"), "\(check.stdout)")
            // The commands a line suggests (`swift run workshop hint`, its id and number) are not sentences.
            // Nor are the messages quoted word for word in 「」 (Swift's, Foundation's, SQLite's errors).
            let prose = check.stdout.replacingOccurrences(
                of: #"swift run [^\n]*"#, with: "", options: .regularExpression
            ).replacingOccurrences(of: "「[^」]*」", with: "「」", options: .regularExpression)
            #expect(EnglishSentences.lines(in: prose) == [], "\(id): \(check.stdout)")
            // The English names are still the identity: the catalog's first check, in Japanese.
            let first = try #require(exercise.checks.first)
            #expect(!check.stdout.contains(first), "\(id) prints \(first) in English: \(check.stdout)")
        }
    }
}

@Suite struct CheckTextJapaneseTests {
    @Test func everyCheckTextHasItsJapanese() async throws {
        let pairs = try CheckTextJapanese.pairs()
        #expect(pairs.count > 300, "the scan found the checks' texts")
        // (Every text has its Japanese by construction: ExerciseChecks has no English-only
        // `localized`, so a check that leaves out `ja:` does not compile.)
        let untranslated = pairs.filter { $0.english == $0.japanese && $0.english.contains(" ") }.map(\.place)
        #expect(untranslated == [], "the same English on both sides")
    }

    @Test func theJapaneseKeepsEveryFormatsArguments() async throws {
        for (english, japanese, place) in try CheckTextJapanese.pairs() {
            #expect(
                CheckTextJapanese.conversions(japanese) == CheckTextJapanese.conversions(english),
                "\(place): \(english) = \(japanese)")
            // Code in backticks (a command to run) is not a sentence.
            let prose = japanese.replacingOccurrences(of: "`[^`]*`", with: "``", options: .regularExpression)
            #expect(EnglishSentences.lines(in: prose).isEmpty, "\(place): English left in: \(japanese)")
            // Positional and plain specifiers do not mix in one format.
            let positional = japanese.contains("$")
            let plain = japanese.range(of: #"%[-+ 0#]*\d*(?:\.\d+)?[@df]"#, options: .regularExpression) != nil
            #expect(!(positional && plain), "\(place): mixed specifiers: \(japanese)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct CheckTextJapaneseSlowTests {
    @Test func theShippedFilesFailInJapanese() async throws {
        // The slow tier: `WorkshopJapaneseOutputTests` and `JapaneseModeTests` check in Japanese quick.
        try await CheckTextJapanese.checkSpeaksJapanese(CheckTextJapanese.quick)
    }

    @Test func everyExerciseFailsInJapanese() async throws {
        let quick = Set(CheckTextJapanese.quick.map(\.id))
        try await CheckTextJapanese.checkSpeaksJapanese(Subject.all.filter { !quick.contains($0.id) })
    }

    /// `--lang en` beats a Japanese locale in the check program too; `--lang ja` reaches it without one.
    @Test func theLanguageFlagReachesTheCheckProgram() async throws {
        // The slow tier: WorkshopJapaneseOutputTests checks with --lang ja and the locale quick.
        let workspace = try TestWorkspace()
        let exercise = try #require(CheckTextJapanese.quick.first)
        let failing = try #require(exercise.failsAsShipped.first)
        let english = try await WorkshopBinary.run(
            ["check", exercise.id, "--lang", "en"], root: workspace.root, changes: ["LANG": "ja_JP.UTF-8"])
        #expect(english.stdout.contains("  FAIL  \(failing)\n        wanted: "), "\(english.stdout)")
        #expect(!english.stdout.contains("期待"), "\(english.stdout)")
        let japanese = try await WorkshopBinary.run(["check", exercise.id, "--lang", "ja"], root: workspace.root)
        let name = try #require(exercise.japaneseCheckNames[failing])
        #expect(japanese.stdout.contains("  FAIL  \(name)\n        期待:   "), "\(japanese.stdout)")
        #expect(!japanese.stdout.contains("wanted:"), "\(japanese.stdout)")
    }
}
