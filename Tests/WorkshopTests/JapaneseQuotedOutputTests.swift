import Foundation
import LessonTestSupport
import Testing

/// The Japanese path shows Japanese: a Japanese text (Lessons/ja, Lessons/docc/ja, every `*.ja.md`) never quotes a
/// program's English where the program says it in Japanese. The programs' tables are the source of truth: the
/// English keys of `Sources/*/Resources/ja.lproj/Localizable.strings` (the lessons, `workshop`, `fixture-server`,
/// the core, the server) and the checks' English names (`Check("...", ja: "...")`), each with a Japanese that says
/// it otherwise. What counts:
///
/// - a phrase of such a key: its text between format specifiers, parentheses and clause ends, two English words
///   or more ("bytes on the wire", "Where the time went"), in a block (a capture, an illustration, a command),
///   in a code span, or in a "...", 「...」 or **...** quote of the prose (a quote may run over a line break);
/// - a one-word text of the Screen: "loading..." as a whole quote or in a block, and a state after a colon
///   ("item 1: cancelled");
/// - an English label of a key ("Error: ") beginning a line or a quote that goes on in Japanese;
/// - a comment (`# ...`, `// ...`) in English, in a block of commands or code the text writes itself;
/// - in a block captured from a Japanese run (`<!-- capture: ... (ja) -->`), a line holding an English sentence
///   (three English words in a row, as the programs' own Japanese tests count them): a text the program did not
///   translate.
///
/// What stays English by design is not looked at: code identifiers (`@"loading..."` is the article's code, not a
/// quote of the program), metric names and `--json` keys, lane, span, variant and step names (`item 1`), an
/// article's text (`<!-- quote: -->`), the words of others that a program quotes in 「」 (Foundation's, the
/// compiler's; ThreadSanitizer's in an illustration), SQLite's own (`sqlite> ` and its `Error: ` messages), and the
/// commands a line names (`swift run ...`).
@Suite struct JapaneseQuotedOutputTests {
    /// The English a program says in Japanese: phrases (with where each comes from) and line labels.
    struct ProgramEnglish {
        var phrases: [String: String] = [:]
        var labels: [String: String] = [:]
        /// One-word texts on the Screen ("loading..."): a quote that is only this word, or a block's word.
        var ellipses: [String: String] = [:]
        /// One-word states ("cancelled"): a quote that ends in one after a colon ("item 1: cancelled").
        var states: [String: String] = [:]
        /// The phrases by their first word: a line is searched only for the phrases whose first word it has.
        var byFirstWord: [String: [String]] = [:]

        static func words(in text: String) -> [String] {
            text.split { !($0.isASCII && $0.isLetter) }.map(String.init)
        }

        /// The phrases `text` may hold.
        func candidates(in text: String) -> [String] {
            Set(Self.words(in: text)).flatMap { byFirstWord[$0] ?? [] }
        }
    }

    static let formatSpecifier = #"%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?(?:ll|l|h)?[@dfsuxXc%]"#
    static let twoWords = #"[A-Za-z]{2,} [A-Za-z]{2,}"#

    /// The phrases of one English key: its text between format specifiers, line breaks, parentheses and the
    /// ends of its clauses (": ", "; ", ". "), less the spaces and punctuation around it, when it has two English
    /// words and at least 10 characters and the Japanese does not keep it as it is.
    static func phrases(ofKey key: String, japanese: String) -> [String] {
        let pieces = key.replacingOccurrences(of: formatSpecifier, with: "\n", options: .regularExpression)
            .replacingOccurrences(of: #"[()]|[:;.?!] "#, with: "\n", options: .regularExpression)
            .split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,.:;()!?'\"`")) }
        return pieces.filter { piece in
            piece.count >= 10 && piece.range(of: twoWords, options: .regularExpression) != nil
                && !japanese.contains(piece)
        }
    }

    static func programEnglish() throws -> ProgramEnglish {
        var english = ProgramEnglish()
        let manager = FileManager.default
        let root = JapaneseTexts.root
        func add(key: String, japanese: String, from path: String) {
            guard key != japanese else { return }
            for phrase in phrases(ofKey: key, japanese: japanese) where english.phrases[phrase] == nil {
                english.phrases[phrase] = path
            }
            if let label = key.range(of: #"^[A-Z][a-z]+: "#, options: .regularExpression).map({ String(key[$0]) }),
                !japanese.hasPrefix(label)
            {
                english.labels[label] = path
            }
            if key.range(of: #"^[A-Za-z]{4,}\.\.\.$"#, options: .regularExpression) != nil {
                english.ellipses[key] = path
            }
            if key.range(of: "^[a-z]{4,}$", options: .regularExpression) != nil { english.states[key] = path }
        }
        for target in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).sorted() {
            let path = "Sources/\(target)/Resources/ja.lproj/Localizable.strings"
            guard let data = manager.contents(atPath: root.appendingPathComponent(path).path) else { continue }
            let table = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String], "\(path)")
            for (key, japanese) in table { add(key: key, japanese: japanese, from: path) }
        }
        let name = try NSRegularExpression(pattern: #"Check\(\s*"((?:[^"\\]|\\.)*)",\s*ja:\s*"((?:[^"\\]|\\.)*)""#)
        for exercise in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Exercises").path) {
            let path = "Exercises/\(exercise)/.meta/checks.swift"
            guard let text = try? JapaneseTexts.text(path) else { continue }
            for match in name.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let key = Range(match.range(at: 1), in: text), let japanese = Range(match.range(at: 2), in: text),
                    !text[key].contains("\\(")
                else { continue }
                add(key: String(text[key]), japanese: String(text[japanese]), from: path)
            }
        }
        english.byFirstWord = Dictionary(grouping: english.phrases.keys) { ProgramEnglish.words(in: $0).first ?? "" }
        return english
    }

    /// Every Japanese text, relative to the package root.
    static func japaneseTexts() throws -> [String] {
        let tutorials = "Lessons/docc/ja"
        let manager = FileManager.default
        let docc = try manager.contentsOfDirectory(atPath: JapaneseTexts.root.appendingPathComponent(tutorials).path)
            .filter { $0.hasSuffix(".tutorial") || $0.hasSuffix(".md") }.map { tutorials + "/" + $0 }
        return try (JapaneseTexts.relativePaths() + docc).sorted()
    }

    /// What a fenced block holds, from its fence and the marker above it.
    enum Block: Equatable {
        case japaneseRun, illustration, quote, code, commands
    }

    /// The lines of a text, each with the block it is in (nil: prose), numbered from 1.
    static func lines(_ text: String) -> [(number: Int, line: String, block: Block?)] {
        var result: [(Int, String, Block?)] = []
        var block: Block?
        var marker = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if block != nil {
                    block = nil
                } else {
                    let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    if marker.hasPrefix("<!-- quote:") {
                        block = .quote
                    } else if marker.hasPrefix("<!-- capture:") {
                        block = marker.contains("(ja)") ? .japaneseRun : .illustration
                    } else if marker.hasPrefix("<!-- illustration:") {
                        block = .illustration
                    } else {
                        block = language.isEmpty || language == "text" || language == "sh" ? .commands : .code
                    }
                }
                continue
            }
            if !trimmed.isEmpty { marker = trimmed }
            result.append((index + 1, line, block))
        }
        return result
    }

    static func hasJapanese(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { (0x3000...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
    }

    /// `phrase` in `text` as words: no letter right before or after it.
    static func contains(_ text: String, word phrase: String) -> Bool {
        var start = text.startIndex
        while let found = text.range(of: phrase, range: start..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if before?.isLetter != true && after?.isLetter != true { return true }
            start = text.index(after: found.lowerBound)
        }
        return false
    }

    /// The quotes of a paragraph (its lines joined with spaces, as Markdown reads a line break, so that a code
    /// span or a phrase may run over one): its code spans, then its "...", 「...」 and **...** quotes, each with
    /// the offset (in characters) where it starts. HTML comments are left out.
    static func quotes(_ paragraph: String) -> [(offset: Int, text: String)] {
        var found: [(Int, String)] = []
        var outside = ""
        var span = ""
        var spanStart = 0
        var inSpan = false
        for (offset, character) in paragraph.enumerated() {
            if character == "`" {
                if inSpan { found.append((spanStart, span)) }
                inSpan.toggle()
                span = ""
                spanStart = offset + 1
                outside.append(" ")
            } else if inSpan {
                span.append(character)
                outside.append(" ")  // offsets stay those of the paragraph
            } else {
                outside.append(character)
            }
        }
        for pattern in [#""([^"]*)""#, "「([^」]*)」", #"\*\*([^*]+)\*\*"#] {
            let expression = try? NSRegularExpression(pattern: pattern)
            let whole = NSRange(outside.startIndex..., in: outside)
            for match in expression?.matches(in: outside, range: whole) ?? [] {
                guard let range = Range(match.range(at: 1), in: outside) else { continue }
                found.append((outside.distance(from: outside.startIndex, to: range.lowerBound), String(outside[range])))
            }
        }
        return found
    }

    /// What is left of a Japanese run's line once the words that stay English are out: 「」 quotes, a command
    /// from `swift run` on, SQLite's lines and messages, a row of the metrics table.
    static func ownWords(_ line: String) -> String {
        var text = line.replacingOccurrences(of: "「[^」]*」", with: "", options: .regularExpression)
        if let command = text.range(of: "swift run ") { text = String(text[..<command.lowerBound]) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("sqlite> ")
            || trimmed.range(of: #"^[a-z][A-Za-z0-9]*\s{2,}"#, options: .regularExpression) != nil
        {
            return ""
        }
        if let error = text.range(of: "Error: "), !hasJapanese(text[error.upperBound...]) {
            text = String(text[..<error.lowerBound])
        }
        return text
    }

    /// Every English a program says in Japanese that `text` quotes, as "path:line: what: the line", in line order.
    static func findings(in text: String, path: String, english: ProgramEnglish) -> [String] {
        var found: [(number: Int, text: String)] = []
        let numbered = lines(text)
        let raw = text.split(separator: "\n", omittingEmptySubsequences: false)
        func report(_ number: Int, _ what: String) {
            let shown = raw[number - 1].trimmingCharacters(in: .whitespaces)
            found.append((number, "\(path):\(number): \(what): \(shown)"))
        }
        func look(at segment: String, _ number: Int, quote: Bool) {
            for phrase in english.candidates(in: segment).sorted() where contains(segment, word: phrase) {
                report(number, "English \"\(phrase)\" (\(english.phrases[phrase] ?? "") has its Japanese)")
            }
            let start = segment.trimmingCharacters(in: .whitespaces)
            for (label, source) in english.labels where start.hasPrefix(label) && hasJapanese(start) {
                report(number, "English label \"\(label)\" (\(source) has its Japanese)")
            }
            for (word, source) in english.ellipses where quote ? start == word : contains(segment, word: word) {
                report(number, "English \"\(word)\" (\(source) has its Japanese)")
            }
            for (word, source) in english.states where quote && start.hasSuffix(": " + word) {
                report(number, "English \"\(word)\" (\(source) has its Japanese)")
            }
        }
        // The blocks, line by line.
        for (number, line, block) in numbered {
            guard let block, block != .quote else { continue }
            if block != .code { look(at: line, number, quote: false) }
            if block == .commands || block == .code,
                let comment = line.range(of: #"(^|\s)(#|//) .*$"#, options: .regularExpression).map({ line[$0] }),
                !hasJapanese(comment), comment.range(of: "[A-Za-z]{3,}", options: .regularExpression) != nil
            {
                report(number, "English comment \"\(comment.trimmingCharacters(in: .whitespaces))\"")
            }
            if block == .japaneseRun, !EnglishSentences.lines(in: ownWords(line)).isEmpty {
                report(number, "English sentence in a Japanese run")
            }
        }
        // The prose, paragraph by paragraph: a quote may run over a line break.
        var paragraph: [(number: Int, line: String)] = []
        func flush() {
            defer { paragraph = [] }
            var joined = ""
            var starts: [(offset: Int, number: Int)] = []
            for (number, line) in paragraph {
                if !joined.isEmpty { joined.append(" ") }
                starts.append((joined.count, number))
                joined += line.replacingOccurrences(of: "<!--.*?-->", with: "", options: .regularExpression)
                    .trimmingCharacters(in: .whitespaces)
            }
            for (offset, segment) in quotes(joined) {
                look(at: segment, starts.last { $0.offset <= offset }?.number ?? starts[0].number, quote: true)
            }
        }
        for (number, line, block) in numbered {
            if block == nil && !line.trimmingCharacters(in: .whitespaces).isEmpty {
                paragraph.append((number, line))
            } else if !paragraph.isEmpty {
                flush()
            }
        }
        if !paragraph.isEmpty { flush() }
        return found.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
            .map(\.element.text)
    }

    @Test func noJapaneseTextQuotesAProgramsEnglish() throws {
        let english = try Self.programEnglish()
        #expect(english.phrases.count > 500, "the programs' tables and the checks were read")
        #expect(english.labels["Error: "] != nil, "the harness's error label is in a table")
        let paths = try Self.japaneseTexts()
        #expect(paths.count > 45, "\(paths)")
        var blocks = 0
        for path in paths {
            let text = try JapaneseTexts.text(path)
            blocks += Self.lines(text).filter { $0.block == .japaneseRun }.count
            // One failure a text, its findings one a line.
            let found = Self.findings(in: text, path: path, english: english)
            #expect(found.isEmpty, "\(found.count) English quote(s):\n\(found.joined(separator: "\n"))")
        }
        #expect(blocks > 500, "lines of captured Japanese runs were read")
    }

    /// The check itself, on lines as they stood before issue 39 (the server's log, a shell comment, the English
    /// error label, a code span), one the harness never translated, and lines that stay English by design.
    @Test func theCheckReportsEnglishOutputButNotWhatStaysEnglish() throws {
        let english = try Self.programEnglish()
        let old = """
            <!-- illustration: the fixture server's log in terminal 2 -->
            ```
                1.391  GET /api/login -> 200, 217 bytes on the wire, gzip, 0.307 s
            ```
            ```
            swift run fixture-server --port 8080 --latency 0.3        # terminal 2
            swift run lesson05 --server http://127.0.0.1:8080         # ターミナル 1
            ```
            <!-- capture: swift run lesson05 --fault stall --timeout 1 (ja) -->
            ```
            Error: no-thread バリアントが失敗しました: 応答を 1 秒待ってタイムアウトしました
            the body is not XML (line 4, column 2): the parser gave up
            sqlite> insert into tblA (id,message,flg) values ('100','A',1);
              501 項の INSERT ... SELECT: Error: too many terms in compound SELECT
            completionOrder               login user welcome i1 i2
                    結果:   失敗:「Data was corrupted. The given data was not valid JSON.」
                    ヒント 1 が役に立ちます: swift run workshop hint NN 1
            ```
            サーバは `GET /xml/catalog -> 200, 5591 bytes on the wire` のように出します。すぐに "loading..." が出ます。
            <!-- quote: the article's log -->
            ```
            the bytes on the wire, as the article wrote them
            ```
            ```swift
            queue.addOperation(dependant)  // only the queue holds it
            ```
            記事のアプリは `@"loading..."` を出します。
            レポートには `label.width (horizontal) is not fixed by the
            constraints: took its one-line width, 56` と出ています。
            - **Where the time went。** スレッドなしでは、レーンは `main` の 1 本だけです。
            0.48 秒で "item 1: cancelled" になりました。`case cancelled` と `item 1` はコードとラベルです。
            """
        let found = Self.findings(in: old, path: "old.md", english: english)
        let lines = Set(found.compactMap { $0.split(separator: ":").dropFirst().first.flatMap { Int($0) } }).sorted()
        #expect(lines == [3, 6, 11, 12, 19, 25, 28, 30, 31], "\(found.joined(separator: "\n"))")
        #expect(found.first?.contains("\"bytes on the wire\"") ?? false, "\(found)")
        #expect(found.contains { $0.contains("label \"Error: \"") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("old.md:19: English \"loading...\"") }, "\(found)")
    }
}
