import Foundation

/// A lesson's demos as its text gives them, for `workshop present`: one step per section that
/// quotes the lesson's program (`swift run lessonNN ...` in a fenced block), in the text's order,
/// titled by the section's heading, with every command the section quotes and the section's own
/// takeaway.
public struct LessonDemo: Sendable, Equatable {
    /// One `swift run` line the section quotes.
    public struct Command: Sendable, Equatable {
        /// The line as quoted, without a leading "$ " and a trailing "# comment"
        /// ("swift run lesson03 --variant threaded --image-width 4").
        public var text: String
        /// The comment after it, if any ("terminal 2"): where the room runs it.
        public var comment: String
        /// The program ("lesson03", "fixture-server") and its arguments.
        public var product: String
        public var arguments: [String]

        /// The line as the text shows it: the command, then its comment.
        public var quoted: String { comment.isEmpty ? text : text + "   # " + comment }
    }

    /// The heading ("Second demo: a wider image queue"; "Demo" for the first one).
    public var title: String
    /// One sentence saying what to look at: the first sentence of the section's prose; under
    /// the lesson's first demo heading (a `##` one, whose prose describes a captured run) the
    /// lesson's own "idea in one sentence".
    public var point: String
    /// What the room should take away from this step: the section's "**Takeaway:** ..."
    /// paragraph (in Japanese "**まとめ:** ..."), without its label; empty when it has none.
    public var takeaway: String
    /// Every `swift run` line of the section, in order: the lesson's own (the step runs them, one
    /// after the other) and any other the room needs beside them (a server in a second terminal).
    public var commands: [Command]
    /// The lesson program ("lesson03").
    public var product: String

    /// The lesson's own lines: what the step runs, in order.
    public var runs: [Command] { commands.filter { $0.product == product } }

    /// A demo that talks to a server the room starts itself (`--server URL`, with
    /// `swift run fixture-server` in a second terminal): nothing a projector run can have.
    public var needsOwnServer: Bool {
        runs.contains { $0.arguments.contains { $0 == "--server" || $0.hasPrefix("--server=") } }
    }
}

extension LessonText {
    /// The labels that open a section's takeaway paragraph, in the languages the texts are written in.
    static let takeawayLabels = ["Takeaway", "まとめ"]

    /// The demos of the lesson text `text` whose program is `product` ("lesson03").
    public static func demos(in text: String, product: String) -> [LessonDemo] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let idea = ideaSentence(lines)
        let quoted = quotedCommands(in: text)
        // The sections that quote the lesson's program, by their heading's line, in order.
        var sections: [Int] = []
        for command in quoted where command.product == product && !sections.contains(command.headingLine) {
            sections.append(command.headingLine)
        }
        return sections.compactMap { headingLine in
            let inSection = quoted.filter { $0.headingLine == headingLine }
            guard let first = inSection.first else { return nil }
            let prose = prose(after: headingLine, in: lines)
            let point = first.headingLevel <= 2 && !idea.isEmpty ? idea : firstSentence(prose)
            return LessonDemo(
                title: plain(first.heading), point: point,
                takeaway: takeaway(of: headingLine, level: first.headingLevel, in: lines, otherDemos: sections),
                commands: inSection.map { command in
                    LessonDemo.Command(
                        text: command.text, comment: command.comment, product: command.product,
                        arguments: command.arguments)
                }, product: product)
        }
    }

    /// The takeaway paragraph of the section under the heading on line `headingLine` (1-based,
    /// of level `level`): the first paragraph in it that opens with a bold "Takeaway:" (or
    /// "まとめ:"), without its label, in plain text. The section runs to the next heading of its
    /// level or above, or to the next demo's heading (lines `otherDemos`), so "## Demo" keeps its
    /// "### What to look at"; empty when there is none.
    static func takeaway(of headingLine: Int, level: Int, in lines: [String], otherDemos: [Int]) -> String {
        var inCode = false
        var section: [String] = []
        for (offset, line) in lines.dropFirst(headingLine).enumerated() {
            if line.hasPrefix("```") {
                inCode.toggle()
                section.append("")
                continue
            }
            if !inCode, let (_, found) = heading(line) {
                let number = headingLine + offset + 1
                if found <= level || otherDemos.contains(number) { break }
                section.append("")
                continue
            }
            section.append(inCode || line.hasPrefix("|") || line.hasPrefix("- ") ? "" : line)
        }
        for paragraph in paragraphs(section[...]) {
            for label in takeawayLabels {
                let opening = "**\(label):**"
                guard paragraph.hasPrefix(opening) else { continue }
                return plain(String(paragraph.dropFirst(opening.count))).trimmingCharacters(in: .whitespaces)
            }
        }
        return ""
    }

    /// The lesson's "**The idea in one sentence:** ..." paragraph (any language: the first
    /// paragraph before the first `##` heading that opens with a bold label ending in a colon),
    /// without its label; empty when there is none.
    static func ideaSentence(_ lines: [String]) -> String {
        for paragraph in paragraphs(lines.prefix { !$0.hasPrefix("## ") }) {
            guard paragraph.hasPrefix("**"), let close = paragraph.range(of: ":**") else { continue }
            let sentence = firstSentence(String(paragraph[close.upperBound...]))
            return sentence.prefix(1).uppercased() + sentence.dropFirst()
        }
        return ""
    }

    /// The first paragraph of prose after the heading on line `headingLine` (1-based) that is
    /// the section's own words: fenced blocks, tables, lists, headings and HTML comments are
    /// not prose, and neither is a paragraph that only introduces the block after it: a
    /// capture's caption ("Captured (part 1, Width pinning):", 「実測結果です(パート 1 の Width
    /// 固定)。」), one sentence right before a fenced block (with or without its marker, such as
    /// `<!-- capture: ... -->`, between them), or a few words and a colon ("Captured:"). Empty
    /// when the section has no other paragraph.
    static func prose(after headingLine: Int, in lines: [String]) -> String {
        var rest: [String] = []
        var inCode = false
        // Paragraphs are counted as `paragraphs` splits them: `current` is the index of the one
        // being read (or the last one), `inParagraph` whether a line of it was the last line.
        var current = -1
        var inParagraph = false
        // The paragraph that ended with only blank lines after it so far.
        var pending: Int?
        // The paragraphs a block (a fenced block, a capture's marker) comes right after.
        var beforeBlock: Set<Int> = []
        for line in lines.dropFirst(headingLine) {
            if inCode {
                if line.hasPrefix("```") { inCode = false }
                rest.append("")
                continue
            }
            if heading(line) != nil { break }
            if line.hasPrefix("```") {
                if let before = inParagraph ? current : pending { beforeBlock.insert(before) }
                inCode = true
                (inParagraph, pending) = (false, nil)
                rest.append("")
                continue
            }
            if line.hasPrefix("<!--") {
                // A block's marker (`<!-- capture: ... -->`, `<!-- illustration: ... -->`) is
                // no prose, and leaves the paragraph before it right before the block.
                if inParagraph { pending = current }
                inParagraph = false
                rest.append("")
                continue
            }
            let isProse = !line.hasPrefix("|") && !line.hasPrefix("- ") && !line.hasPrefix("!")
            if !isProse {
                (inParagraph, pending) = (false, nil)
                rest.append("")
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if inParagraph { pending = current }
                inParagraph = false
                rest.append(line)
            } else {
                if !inParagraph { current += 1 }
                (inParagraph, pending) = (true, nil)
                rest.append(line)
            }
        }
        return paragraphs(rest[...]).enumerated().first { index, paragraph in
            !introducesABlock(paragraph) && !(beforeBlock.contains(index) && isOneSentence(paragraph))
        }?.element ?? ""
    }

    /// Whether `paragraph` is one sentence: its first sentence is all of it.
    static func isOneSentence(_ paragraph: String) -> Bool {
        firstSentence(paragraph) == plain(paragraph).trimmingCharacters(in: .whitespaces)
    }

    /// A paragraph that only says what the block after it is: a few words and a colon ("Captured:",
    /// "Captured (`--json`):").
    static func introducesABlock(_ paragraph: String) -> Bool {
        let sentence = firstSentence(paragraph)
        return (sentence.hasSuffix(":") || sentence.hasSuffix("：")) && sentence.split(separator: " ").count <= 3
    }

    /// Paragraphs: runs of non-blank lines, joined (with a space between two Latin words, with
    /// nothing inside Japanese, which breaks lines without spaces, nor after a Japanese comma or
    /// full stop).
    static func paragraphs(_ lines: ArraySlice<String>) -> [String] {
        var paragraphs: [String] = []
        var current = ""
        for raw in lines + [""] {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                if !current.isEmpty { paragraphs.append(current) }
                current = ""
            } else if let last = current.unicodeScalars.last, let first = line.unicodeScalars.first,
                last.isASCII || first.isASCII, !(0x3000...0x303F).contains(last.value)
            {
                current += " " + line
            } else {
                current += line
            }
        }
        return paragraphs
    }

    /// The first sentence of `paragraph`, in plain text: up to the first "。" or a full stop
    /// followed by a space (not "e.g." or "i.e.").
    static func firstSentence(_ paragraph: String) -> String {
        let text = plain(paragraph)
        var sentence = ""
        var previous: Character = " "
        for (index, character) in zip(text.indices, text) {
            sentence.append(character)
            if character == "。" { break }
            let next = text.index(after: index)
            if character == ".", next == text.endIndex || text[next] == " ",
                !sentence.hasSuffix("e.g."), !sentence.hasSuffix("i.e."), previous != "."
            {
                break
            }
            previous = character
        }
        return sentence.trimmingCharacters(in: .whitespaces)
    }

    /// Markdown to what a terminal shows: no `**`, `*` or backticks, links as their text.
    static func plain(_ markdown: String) -> String {
        var text = markdown.replacingOccurrences(
            of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        for mark in ["**", "`", "*"] { text = text.replacingOccurrences(of: mark, with: "") }
        return text
    }
}
