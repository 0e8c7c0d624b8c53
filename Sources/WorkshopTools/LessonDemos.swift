import Foundation

/// A lesson's demos as its text gives them, for `workshop present`: one step per quoted
/// `swift run lessonNN ...` line, in the text's order, titled by the heading it stands under.
public struct LessonDemo: Sendable, Equatable {
    /// The heading ("Second demo: a wider image queue"; "Demo" for the first one).
    public var title: String
    /// One sentence saying what to look at: the first sentence of the section's prose; under
    /// the lesson's first demo heading (a `##` one, whose prose describes a captured run) the
    /// lesson's own "idea in one sentence".
    public var point: String
    /// The quoted line as written ("swift run lesson03 --variant threaded --image-width 4").
    public var command: String
    /// The lesson program ("lesson03") and its arguments.
    public var product: String
    public var arguments: [String]

    /// A demo that talks to a server the room starts itself (`--server URL`, with
    /// `swift run fixture-server` in a second terminal): nothing a projector run can have.
    public var needsOwnServer: Bool { arguments.contains { $0 == "--server" || $0.hasPrefix("--server=") } }
}

extension LessonText {
    /// The demos of the lesson text `text` whose program is `product` ("lesson03").
    public static func demos(in text: String, product: String) -> [LessonDemo] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let idea = ideaSentence(lines)
        return quotedCommands(in: text).filter { $0.product == product }.map { quoted in
            let section = prose(after: quoted.headingLine, in: lines)
            let point = quoted.headingLevel <= 2 && !idea.isEmpty ? idea : firstSentence(section)
            return LessonDemo(
                title: plain(quoted.heading), point: point, command: quoted.text, product: quoted.product,
                arguments: quoted.arguments)
        }
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

    /// The first paragraph of prose after the heading on line `headingLine` (1-based): fenced
    /// blocks, tables, lists and headings are not prose.
    static func prose(after headingLine: Int, in lines: [String]) -> String {
        var inCode = false
        var rest: [String] = []
        for line in lines.dropFirst(headingLine) {
            if line.hasPrefix("```") {
                inCode.toggle()
                rest.append("")
                continue
            }
            if self.heading(line) != nil { break }
            let isProse = !inCode && !line.hasPrefix("|") && !line.hasPrefix("- ") && !line.hasPrefix("!")
            rest.append(isProse ? line : "")
        }
        return paragraphs(rest[...]).first ?? ""
    }

    /// Paragraphs: runs of non-blank lines, joined (with a space between two Latin words, with
    /// nothing inside Japanese, which breaks lines without spaces).
    static func paragraphs(_ lines: ArraySlice<String>) -> [String] {
        var paragraphs: [String] = []
        var current = ""
        for raw in lines + [""] {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                if !current.isEmpty { paragraphs.append(current) }
                current = ""
            } else if let last = current.unicodeScalars.last, let first = line.unicodeScalars.first,
                last.isASCII || first.isASCII
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
