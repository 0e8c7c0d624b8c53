import ExerciseChecks
import Foundation
import LessonTestSupport
import Testing
import WorkshopTools

/// Keeps the English lesson texts (Lessons/*.md) and the Japanese ones (Lessons/ja/*.md) in step:
/// every English text has a Japanese one of the same name, with the same headings per level in the
/// same order, and the same `swift run` lines; the two link each other on their first line; the
/// Japanese run lines parse with today's flags, as the English ones do; and the glossary is there.
/// A section added to an English text therefore fails here until its Japanese text has it too.
struct LanguageSyncTests {
    static let root = ExerciseRoot.builtFrom

    /// The English texts' file names: Lessons/*.md.
    static func englishNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Lessons").path)
            .filter { $0.hasSuffix(".md") }.sorted()
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The heading levels of a Markdown text in order (1 for `#`, 2 for `##`, ...), outside fenced
    /// code blocks, where a `#` line is a shell comment or program output, not a heading.
    static func headingLevels(_ text: String) -> [Int] {
        var inCode = false
        var levels: [Int] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode, line.hasPrefix("#") else { continue }
            let level = line.prefix { $0 == "#" }.count
            if line.dropFirst(level).first == " " { levels.append(level) }
        }
        return levels
    }

    /// The quoted `swift run` lines of one folder, as words, counted per text file name.
    static func runLines(in folder: String) throws -> [String: [String: Int]] {
        var lines: [String: [String: Int]] = [:]
        for command in try LessonCommandsTests.commands(in: folder) {
            let name = String(command.file.split(separator: "/").last ?? "")
            let words = ([command.product] + command.arguments).joined(separator: " ")
            lines[name, default: [:]][words, default: 0] += 1
        }
        return lines
    }

    @Test func everyEnglishTextHasAJapaneseOne() throws {
        let names = try Self.englishNames()
        #expect(names.count >= 9, "\(names)")  // the syllabus, lessons 01-07 and linux-notes
        for name in names {
            let japanese = Self.root.appendingPathComponent("Lessons/ja/" + name).path
            #expect(FileManager.default.fileExists(atPath: japanese), "Lessons/\(name) has no Lessons/ja/\(name)")
        }
    }

    @Test func theTwoTextsLinkEachOtherOnTheirFirstLine() throws {
        for name in try Self.englishNames() {
            let english = try Self.text("Lessons/" + name)
            let japanese = try Self.text("Lessons/ja/" + name)
            #expect(english.hasPrefix("[日本語](ja/\(name))"), "Lessons/\(name) must start with [日本語](ja/\(name))")
            #expect(
                japanese.hasPrefix("[English](../\(name))"), "Lessons/ja/\(name) must start with [English](../\(name))")
        }
        #expect(try Self.text("README.md").hasPrefix("[日本語](Lessons/ja/README.md)"))
    }

    @Test func theSameHeadingsPerLevelInTheSameOrder() throws {
        for name in try Self.englishNames() {
            let english = Self.headingLevels(try Self.text("Lessons/" + name))
            let japanese = Self.headingLevels(try Self.text("Lessons/ja/" + name))
            #expect(english.count > 1, "Lessons/\(name): no headings found")
            for level in 1...4 {
                #expect(
                    english.filter { $0 == level }.count == japanese.filter { $0 == level }.count,
                    "\(name): \(String(repeating: "#", count: level)) headings differ")
            }
            #expect(english == japanese, "\(name): heading levels in order, English \(english) vs Japanese \(japanese)")
        }
    }

    @Test func theSameSwiftRunLines() throws {
        let english = try Self.runLines(in: "Lessons")
        let japanese = try Self.runLines(in: "Lessons/ja")
        #expect(english.values.reduce(0) { $0 + $1.values.reduce(0, +) } >= 10)
        for name in try Self.englishNames() {
            let inEnglish = english[name] ?? [:]
            let inJapanese = japanese[name] ?? [:]
            let missing = inEnglish.filter { inJapanese[$0.key, default: 0] < $0.value }.keys.sorted()
            let extra = inJapanese.filter { inEnglish[$0.key, default: 0] < $0.value }.keys.sorted()
            #expect(missing.isEmpty && extra.isEmpty, "\(name): missing in ja \(missing), only in ja \(extra)")
        }
    }

    /// The glossary: a Markdown table of at least 20 terms, each with its English and an API name.
    @Test func theGlossaryHasItsTerms() throws {
        let rows = try Self.text("Lessons/ja/glossary.md").split(separator: "\n")
            .filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }
            .dropFirst()  // the header row
        #expect(rows.count >= 20, "\(rows.count) rows")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count >= 3 && cells.prefix(3).allSatisfy { !$0.isEmpty }, "\(row)")
        }
        // キャンセル replaced 取り消し (issue 20): Japanese iOS engineers write キャンセル for cancel, and the
        // glossary's term table now lists 取り消し as a variant the texts do not use (JapaneseTermTests).
        for term in ["メインスレッド", "ランループ", "キュー", "並列度", "キャンセル", "アップサート", "制約", "再検証"] {
            #expect(rows.contains { $0.hasPrefix("| " + term) }, "the glossary has no row for \(term)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`): the Japanese texts' quoted lines run.
struct LanguageSyncSlowTests {
    /// The slow tier: a `--help` run per distinct line (CI runs it).
    @Test func everyJapaneseSwiftRunLineParsesWithTheCurrentFlags() async throws {
        let commands = try LessonCommandsTests.commands(in: "Lessons/ja")
        #expect(commands.count >= 10, "\(commands)")
        try await LessonCommandsTests.expectEveryCommandParses(commands)
    }
}
