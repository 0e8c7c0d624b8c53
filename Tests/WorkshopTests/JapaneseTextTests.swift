import Foundation
import Testing

/// The Japanese texts a learner reads: Lessons/ja/*.md and each exercise's README.ja.md and hints.ja.md,
/// as paths relative to the package root, with their lines.
enum JapaneseTexts {
    /// The package root: this file is Tests/WorkshopTests/JapaneseTextTests.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let glossary = "Lessons/ja/glossary.md"

    static func relativePaths() throws -> [String] {
        let manager = FileManager.default
        var paths = try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Lessons/ja").path)
            .filter { $0.hasSuffix(".md") }.map { "Lessons/ja/" + $0 }
        let exercises = try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Exercises").path)
        for exercise in exercises {
            for name in ["README.ja.md", "hints.ja.md"] {
                let path = "Exercises/\(exercise)/\(name)"
                if manager.fileExists(atPath: root.appendingPathComponent(path).path) { paths.append(path) }
            }
        }
        return paths.sorted()
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The lines of a Markdown text outside fenced code blocks, numbered from 1.
    static func proseLines(_ text: String) -> [(number: Int, line: String)] {
        var inCode = false
        var lines: [(number: Int, line: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                continue
            }
            if !inCode { lines.append((index + 1, String(raw))) }
        }
        return lines
    }

    /// A line without its code spans (`...`) and, when `quotes` is true, without its 「...」 quotes too.
    static func stripped(_ line: String, quotes: Bool) -> String {
        var result = ""
        var inCode = false
        var quoteDepth = 0
        for character in line {
            if character == "`" {
                inCode.toggle()
                continue
            }
            if inCode { continue }
            if quotes && character == "「" { quoteDepth += 1 }
            if quoteDepth == 0 { result.append(character) }
            if quotes && character == "」" && quoteDepth > 0 { quoteDepth -= 1 }
        }
        return result
    }

    /// The code spans of a line, without their backticks.
    static func codeSpans(_ line: String) -> [String] {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false)
        return parts.indices.filter { $0 % 2 == 1 && $0 < parts.count - 1 }.map { String(parts[$0]) }
    }
}

/// One row of the glossary's term table: the term the texts use, and the variants they do not.
struct TermRule: Equatable {
    var term: String
    var rejected: [String]
}

/// Reads the term table of Lessons/ja/glossary.md (columns 用語 | 使わない表記 | ...) and fails on any rejected
/// variant left in a Japanese text, naming file:line. Code and 「」 quotes are not looked at: the articles are
/// quoted word for word in 「」 and may use any wording, and code keeps its own names.
@Suite struct JapaneseTermTests {
    /// The term table's rows and the glossary's line numbers that belong to it (header, separator, rows).
    static func termTable(_ glossary: String) -> (rules: [TermRule], lines: Set<Int>) {
        var rules: [TermRule] = []
        var lines = Set<Int>()
        var columns: (term: Int, rejected: Int)?
        for (index, raw) in glossary.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if let found = columns {
                guard line.hasPrefix("|") else { break }
                lines.insert(index + 1)
                if line.hasPrefix("|---") || cells.count <= max(found.term, found.rejected) { continue }
                let rejected = cells[found.rejected].split(separator: "、")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                rules.append(TermRule(term: cells[found.term], rejected: rejected))
            } else if line.hasPrefix("|"), let rejected = cells.firstIndex(of: "使わない表記"),
                let term = cells.firstIndex(of: "用語")
            {
                columns = (term, rejected)
                lines.insert(index + 1)
            }
        }
        return (rules, lines)
    }

    /// The words the table accepts: each term before its parenthesis, split at "、" and " / ".
    static func acceptedTerms(_ rules: [TermRule]) -> [String] {
        rules.flatMap { rule in
            (rule.term.split(separator: "(").first ?? "").components(separatedBy: "、")
                .flatMap { $0.components(separatedBy: " / ") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// Whether `prose` uses `variant`: not where it is part of an accepted term that holds it
    /// (サイジングセル in セルフサイジングセル), and a variant of ASCII letters only as a word of its
    /// own, between spaces, line ends or Japanese (not fetcher, not `init(fetch:)`).
    static func uses(_ prose: String, _ variant: String, accepted: [String]) -> Bool {
        guard prose.contains(variant) else { return false }
        var text = prose
        for term in accepted where term != variant && term.contains(variant) {
            text = text.replacingOccurrences(of: term, with: "\u{FFFC}")
        }
        guard variant.allSatisfy({ $0.isASCII && $0.isLetter }) else { return text.contains(variant) }
        var start = text.startIndex
        while let found = text.range(of: variant, range: start..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if [before, after].allSatisfy({ $0.map { $0.isWhitespace || !$0.isASCII } ?? true }) { return true }
            start = text.index(after: found.lowerBound)
        }
        return false
    }

    /// Every rejected variant in `text`, as "path:line: 「variant」 (use term): the line".
    static func findings(in text: String, path: String, rules: [TermRule], skipping: Set<Int> = []) -> [String] {
        var found: [String] = []
        let accepted = acceptedTerms(rules)
        for (number, line) in JapaneseTexts.proseLines(text) where !skipping.contains(number) {
            let prose = JapaneseTexts.stripped(line, quotes: true)
            for rule in rules {
                for variant in rule.rejected where uses(prose, variant, accepted: accepted) {
                    let shown = line.trimmingCharacters(in: .whitespaces)
                    found.append("\(path):\(number): 「\(variant)」 (use \(rule.term)): \(shown)")
                }
            }
        }
        return found
    }

    func glossaryTable() throws -> (rules: [TermRule], lines: Set<Int>) {
        try Self.termTable(JapaneseTexts.text(JapaneseTexts.glossary))
    }

    @Test func theGlossaryHasATermTableWithTheIssue20Terms() async throws {
        let rules = try glossaryTable().rules
        #expect(rules.count >= 6, "\(rules)")
        for rule in rules {
            #expect(!rule.term.isEmpty, "\(rule)")
            #expect(!rule.rejected.isEmpty, "\(rule.term) lists no variant")
        }
        let terms = rules.map(\.term).joined(separator: " ")
        let variants = rules.flatMap(\.rejected)
        for (term, variant) in [
            ("キャンセル", "取り消し"), ("端末", "電話機"), ("書き込み担当", "書き込み役"), ("ステートメント", "SQL 文"),
            ("パート", "セクション 4"), ("待機用タイマ", "キープアライブのタイマ"), ("全部成功するか全部失敗するか", "全部か無か"),
        ] {
            #expect(terms.contains(term), "the term table has no row for \(term)")
            #expect(variants.contains(variant), "the term table does not reject \(variant)")
        }
        // Issue 39: one word per concept, and the long-vowel rule kept everywhere.
        for (term, variant) in [
            ("取得", "fetch"), ("サイズ計算用セル", "サイジングセル"), ("協調スレッドプール", "共有プール"), ("分離", "隔離"),
            ("オペレーション", "操作"), ("解答例", "模範解答"), ("インタフェース", "インターフェース"), ("プレゼンタ", "プレゼンター"),
            ("件/秒", "requests/s"), ("最大フリーズ", "最悪のフリーズ"),
        ] {
            #expect(terms.contains(term), "the term table has no row for \(term)")
            #expect(variants.contains(variant), "the term table does not reject \(variant)")
        }
    }

    @Test func noJapaneseTextUsesARejectedVariant() async throws {
        let (rules, tableLines) = try glossaryTable()
        #expect(!rules.isEmpty, "no term table in \(JapaneseTexts.glossary)")
        var found: [String] = []
        let paths = try JapaneseTexts.relativePaths()
        #expect(paths.count >= 20, "\(paths)")
        for path in paths {
            let text = try JapaneseTexts.text(path)
            // The glossary's tables name the variants, and its first table the English words, by design.
            let skipping =
                path == JapaneseTexts.glossary
                ? tableLines.union(
                    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                        .filter { $0.element.hasPrefix("|") }.map { $0.offset + 1 }) : []
            found += Self.findings(in: text, path: path, rules: rules, skipping: skipping)
        }
        #expect(found.isEmpty, "\("\(found.count) rejected variant(s):\n" + found.joined(separator: "\n"))")
    }

    /// The programs speak the same words as the texts: every Japanese value of every
    /// `Localizable.strings`, every Japanese text a check declares (`ja: "..."` in an exercise's
    /// `.meta/*.swift`) and the Japanese tutorials (`Lessons/docc/ja`).
    @Test func noProgramStringCheckTextOrTutorialUsesARejectedVariant() async throws {
        let rules = try glossaryTable().rules
        let manager = FileManager.default
        let root = JapaneseTexts.root
        var texts: [(path: String, text: String)] = []
        for target in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) {
            let path = "Sources/\(target)/Resources/ja.lproj/Localizable.strings"
            guard let text = try? JapaneseTexts.text(path) else { continue }
            // The values only (after " = "), each on its own line: the keys are the English.
            let values = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains("\" = \"") ? String(line.components(separatedBy: "\" = \"").dropFirst().joined()) : ""
            }
            texts.append((path, values.joined(separator: "\n")))
        }
        let japaneseLiteral = try NSRegularExpression(pattern: #"ja:\s*"((?:[^"\\]|\\.)*)""#)
        for exercise in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Exercises").path) {
            let meta = "Exercises/\(exercise)/.meta"
            let files = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(meta).path)) ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try JapaneseTexts.text(meta + "/" + file)
                // Each line keeps only its Japanese literals (line numbers stay right).
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                    let line = String(line)
                    return japaneseLiteral.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap {
                        Range($0.range(at: 1), in: line).map { String(line[$0]) }
                    }.joined(separator: " ")
                }
                texts.append((meta + "/" + file, lines.joined(separator: "\n")))
            }
        }
        let tutorials = "Lessons/docc/ja"
        for file in try manager.contentsOfDirectory(atPath: root.appendingPathComponent(tutorials).path) {
            texts.append((tutorials + "/" + file, try JapaneseTexts.text(tutorials + "/" + file)))
        }
        #expect(texts.count > 30, "the programs' tables, the checks and the tutorials were read")
        let found = texts.flatMap { Self.findings(in: $0.text, path: $0.path, rules: rules) }
        #expect(found.isEmpty, "\("\(found.count) rejected variant(s):\n" + found.joined(separator: "\n"))")
    }

    /// The check itself: a line as it stood before issue 20 is reported, with its line number; a variant inside
    /// an article's 「」 quote or inside code is not.
    @Test func theCheckReportsTheOldWordingButNotQuotesOrCode() async throws {
        let rules = try glossaryTable().rules
        let old = "# 見出し\n\n(ユーザの取り消しタップも\n「記事の取り消し」と `取り消し` は対象外\n```\n取り消し\n```\n"
        let found = Self.findings(in: old, path: "old.md", rules: rules)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("old.md:3: 「取り消し」 (use キャンセル)") ?? false, "\(found)")
    }

    /// Issue 39's lines: "fetch" as a word and a sizing cell by another name are reported; a fetcher, an
    /// argument label and the self-sizing cell (a term of its own that holds サイジングセル) are not.
    @Test func theCheckReadsWordsAndLongerTerms() throws {
        let rules = try glossaryTable().rules
        let old = """
            まだ実行中の fetch はすべてキャンセルします。
            新しい fetcher と IconLoader(fetch:) と、iOS 8 からのセルフサイジングセル。
            高さ計算用のセルで測る。
            """
        let found = Self.findings(in: old, path: "old.md", rules: rules)
        #expect(
            found.map { $0.components(separatedBy: " (use").first ?? "" } == [
                "old.md:1: 「fetch」", "old.md:3: 「高さ計算用のセル」",
            ])
    }
}

/// Follows every relative Markdown link in the Japanese texts: the target must exist, and a link (or a path in
/// code, such as `Exercises/<folder>/hints.md`) must not lead a Japanese reader to an English text
/// when a Japanese one exists: X.ja.md beside X.md, or Lessons/ja/X.md for Lessons/X.md. The language switch on
/// a text's first line ([English](...)) is meant to go to English and is left alone.
@Suite struct JapaneseLinkTests {
    static var link: NSRegularExpression? {
        try? NSRegularExpression(pattern: #"\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
    }

    /// The Markdown links of a line outside code spans: (label, target).
    static func links(_ line: String) -> [(label: String, target: String)] {
        let prose = JapaneseTexts.stripped(line, quotes: false)
        guard let link else { return [] }
        let range = NSRange(prose.startIndex..., in: prose)
        return link.matches(in: prose, range: range).compactMap { match in
            guard let label = Range(match.range(at: 1), in: prose), let target = Range(match.range(at: 2), in: prose)
            else { return nil }
            return (String(prose[label]), String(prose[target]))
        }
    }

    /// The Japanese text to use instead of `english` (a path relative to the root), if there is one.
    static func japaneseCounterpart(of english: String) -> String? {
        guard english.hasSuffix(".md"), !english.hasSuffix(".ja.md") else { return nil }
        var candidates = [String(english.dropLast(3)) + ".ja.md"]
        let parts = english.split(separator: "/")
        if parts.count == 2 && parts[0] == "Lessons" { candidates.append("Lessons/ja/" + parts[1]) }
        let manager = FileManager.default
        return candidates.first { manager.fileExists(atPath: JapaneseTexts.root.appendingPathComponent($0).path) }
    }

    /// `target` resolved against the folder of `path`, relative to the package root; nil when it leaves the root.
    static func resolve(_ target: String, from path: String) -> String? {
        let folder = JapaneseTexts.root.appendingPathComponent(path).deletingLastPathComponent()
        let absolute = folder.appendingPathComponent(target).standardizedFileURL.path
        let rootPath = JapaneseTexts.root.standardizedFileURL.path + "/"
        guard absolute.hasPrefix(rootPath) else { return nil }
        return String(absolute.dropFirst(rootPath.count))
    }

    /// Every problem with the links of one text, as "path:line: ...".
    static func problems(in text: String, path: String) -> [String] {
        var problems: [String] = []
        let manager = FileManager.default
        for (number, line) in JapaneseTexts.proseLines(text) {
            for (label, rawTarget) in links(line) {
                let target = String(rawTarget.split(separator: "#", omittingEmptySubsequences: false)[0])
                if target.isEmpty || target.contains(":") { continue }  // an anchor, or http:, https:, mailto:
                guard let resolved = resolve(target, from: path) else {
                    problems.append("\(path):\(number): [\(label)](\(rawTarget)) leaves the package")
                    continue
                }
                if !manager.fileExists(atPath: JapaneseTexts.root.appendingPathComponent(resolved).path) {
                    problems.append("\(path):\(number): [\(label)](\(rawTarget)): \(resolved) does not exist")
                } else if !label.contains("English"), let japanese = japaneseCounterpart(of: resolved) {
                    problems.append(
                        "\(path):\(number): [\(label)](\(rawTarget)) goes to English \(resolved); use \(japanese)")
                }
            }
            for span in JapaneseTexts.codeSpans(line)
            where span.hasSuffix(".md") && (span.hasPrefix("Exercises/") || span.hasPrefix("Lessons/")) {
                if let japanese = japaneseCounterpart(of: span) {
                    problems.append("\(path):\(number): `\(span)` is the English text; use \(japanese)")
                }
            }
        }
        return problems
    }

    @Test func everyLinkInTheJapaneseTextsLeadsToAJapaneseTextThatExists() async throws {
        #expect(Self.link != nil)
        var problems: [String] = []
        var links = 0
        for path in try JapaneseTexts.relativePaths() {
            let text = try JapaneseTexts.text(path)
            links += JapaneseTexts.proseLines(text).reduce(0) { $0 + Self.links($1.line).count }
            problems += Self.problems(in: text, path: path)
        }
        #expect(links >= 40, "too few links found: the pattern is wrong")
        #expect(problems.isEmpty, "\("\(problems.count) link problem(s):\n" + problems.joined(separator: "\n"))")
    }

    /// The check itself, on lines as they stood before issue 20 (the syllabus's R1 link and lesson 03's hints
    /// path), a missing file, and the language switch, which may go to English.
    @Test func theCheckReportsEnglishTargetsAndMissingFiles() async throws {
        // Any exercise with both languages will do (no exercise is named outside its own folder).
        let exercises = JapaneseTexts.root.appendingPathComponent("Exercises")
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: exercises.path).sorted().first { name in
                FileManager.default.fileExists(atPath: exercises.appendingPathComponent("\(name)/hints.ja.md").path)
                    && FileManager.default.fileExists(
                        atPath: exercises.appendingPathComponent("\(name)/README.ja.md").path)
            })
        let old = """
            [English](../03-gcd-queues.md)
            - 演習([README](../../Exercises/\(folder)/README.md)): `RequestCounter`
            `Exercises/\(folder)/hints.md` にあります。
            [ない](../../Exercises/no-such-exercise/README.ja.md)
            [用語集](glossary.md)
            """
        let problems = Self.problems(in: old, path: "Lessons/ja/03-gcd-queues.md")
        #expect(problems.count == 3, "\(problems.joined(separator: "\n"))")
        #expect(problems.contains { $0.contains(":2:") && $0.contains("\(folder)/README.ja.md") }, "\(problems)")
        #expect(problems.contains { $0.contains(":3:") && $0.contains("hints.ja.md") }, "\(problems)")
        #expect(problems.contains { $0.contains(":4:") && $0.contains("does not exist") }, "\(problems)")
    }
}
