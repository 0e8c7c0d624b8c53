import Foundation
import WorkshopCore

/// The figures a text quotes from a run, each tied to the captured block it comes from.
///
/// A figure that a sentence, a quiz's question, choice or justification, or a tutorial's step
/// quotes from a run is followed, on its own line of the text, by an *anchor*: an HTML comment,
/// which GitHub's Markdown and DocC both hide, that says where in a capture the figure is:
///
///     the worst freeze went from **1.79 s**<!-- figure: lesson03 · "worst freeze went from" #1 -->
///     three hangs<!-- figure: lesson03 variant threaded image-width 4 · "hangs" #1 -->
///     after about 0.5 s<!-- figure: lesson01 · "cancel tap was handled after" #1 ~20% -->
///     84x<!-- figure: lesson06 · "rows/s" #2 / "rows/s" #1 -->
///     no hang<!-- claim: lesson03 · "hangs" #2 == 0 and "hangs" #3 == 0 -->
///
/// - Before the `·`: the capture, as its marker's command without `swift run` and without the
///   dashes of its flags (`lesson03 variant threaded image-width 4` for `swift run lesson03
///   --variant threaded --image-width 4`): an HTML comment cannot hold `--` in the CommonMark
///   that GitHub follows. The language is the text's own: an English text quotes the English run,
///   a Japanese text the Japanese one. The capture's blocks are looked for in the anchor's own
///   text first, then in the lesson text of its language (`Lessons/NN-*.md`, `Lessons/ja/NN-*.md`,
///   NN from the text's name, `lessonNN.tutorial` too), then in any text of its language; all the
///   blocks of that command in the first text that has one are read as one output, in order.
/// - After it: where the figure is. `"text" #n` is the n-th number on the first line of those
///   blocks that contains the text (`"text"@2 #n`: on the second such line; `[lesson03] "text"
///   #n`: in another capture, for a comparison between two runs). A number is a run of
///   digits (with one decimal point) that does not follow a letter, a digit or a point:
///   `i2` and `lesson03` hold none, `127.0.0.1` is one that is no value.
///   Derived figures are expressions over them: `+ - * /`, parentheses, `min(...)`, `max(...)`,
///   `abs(...)`, plain numbers.
/// - A *figure* is the last number before its anchor on the line (after the anchor before it,
///   if any). It agrees when it is the value rounded to the figure's own decimals (1.79 for
///   1.788, 1.8 too, 82,503 for 82503); `~10%` lets it be off by that share of the value, for
///   "about" (「約」, 「ほぼ」). `workshop captures --update` writes each figure that no longer
///   agrees, to its own decimals (and thousands separators).
/// - A *claim* is what the sentence says the figures mean: comparisons (`==`, `!=`, `<`, `<=`,
///   `>`, `>=`) joined by `and`. It is checked, never written: a claim that no longer holds
///   is the sentence to reword.
///
/// Here: finding and parsing the anchors. Their expressions' grammar is in `Figures+Expressions`,
/// the blocks an anchor reads in `+Library`, evaluating and checking in `+Checking`, rewriting a
/// figure in `+Writing`, the pictures in `+Pictures`.
public enum Figures {
    // MARK: - Anchors

    public struct Anchor: Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case figure, claim
        }

        public var kind: Kind
        /// The text's path under the package root.
        public var path: String
        /// 1-based line of the text.
        public var line: Int
        /// The capture as the anchor names it ("lesson03 variant threaded image-width 4").
        public var capture: String
        /// What follows the `·`, as written.
        public var source: String
        /// A figure's value.
        var expression: Expression?
        /// A figure's tolerance, as a share of the value (0.1 for `~10%`); nil when it must round.
        public var tolerance: Double?
        /// A claim's comparisons.
        var conditions: [Condition]
        /// A figure: the number the text quotes, and where it stands on the line.
        public var quoted: Quoted?

        /// "Lessons/03-gcd-queues.md:149".
        public var location: String { "\(path):\(line)" }
    }

    /// The number a figure's anchor follows, as the text writes it.
    public struct Quoted: Sendable, Equatable {
        /// As written: "1.79", "82,503".
        public var text: String
        public var value: Double
        /// Digits after the point.
        public var decimals: Int
        /// Written with thousands separators.
        public var grouped: Bool
        /// Where on the line, in characters.
        public var start: Int
        public var end: Int
    }

    /// Why an anchor does not parse, or cannot be read against its capture.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String

        public var description: String { "\(path):\(line): \(message)" }
    }

    static let opening = "<!--"
    static let closing = "-->"

    /// The anchors of `text` (outside its fenced blocks), in order, and the problems of those
    /// that do not parse.
    public static func anchors(in text: String, path: String) -> (anchors: [Anchor], problems: [Problem]) {
        var anchors: [Anchor] = []
        var problems: [Problem] = []
        var inBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock, line.contains(opening) else { continue }
            let characters = Array(String(line))
            var searchFrom = 0
            var previousEnd = 0
            while let open = find(Array(opening), in: characters, from: searchFrom) {
                guard let close = find(Array(closing), in: characters, from: open + opening.count) else { break }
                searchFrom = close + closing.count
                let body = String(characters[(open + opening.count)..<close]).trimmingCharacters(in: .whitespaces)
                guard let colon = body.firstIndex(of: ":"),
                    let kind = Anchor.Kind(rawValue: String(body[..<colon]).trimmingCharacters(in: .whitespaces))
                else { continue }
                let rest = String(body[body.index(after: colon)...])
                if rest.contains("--") {
                    problems.append(
                        Problem(
                            path: path, line: index + 1,
                            message: localized(
                                "an anchor holds no \"--\": GitHub's Markdown would end the comment there and show it; name the capture without its flags' dashes"
                            )))
                    previousEnd = searchFrom
                    continue
                }
                switch parseAnchor(kind: kind, rest, path: path, line: index + 1) {
                case .success(var anchor):
                    if kind == .figure {
                        anchor.quoted = lastNumber(in: characters, from: previousEnd, to: open)
                        if anchor.quoted == nil {
                            problems.append(
                                Problem(
                                    path: path, line: index + 1,
                                    message: localized(
                                        format: "no figure stands before the anchor \"%@\"", body)))
                            previousEnd = searchFrom
                            continue
                        }
                    }
                    anchors.append(anchor)
                case .failure(let problem):
                    problems.append(problem)
                }
                previousEnd = searchFrom
            }
        }
        return (anchors, problems)
    }

    static func find(_ needle: [Character], in haystack: [Character], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }

    /// A number as prose writes it: "3.081", "0.5", "82,503", "1,066,304.5".
    static let prosePattern = #"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?"#

    /// The last number in `characters[from..<to]`.
    static func lastNumber(in characters: [Character], from: Int, to: Int) -> Quoted? {
        guard from < to else { return nil }
        let segment = String(characters[from..<to])
        guard let expression = try? NSRegularExpression(pattern: prosePattern) else { return nil }
        let range = NSRange(segment.startIndex..., in: segment)
        guard let match = expression.matches(in: segment, range: range).last,
            let found = Range(match.range, in: segment)
        else { return nil }
        let text = String(segment[found])
        let plain = text.replacingOccurrences(of: ",", with: "")
        guard let value = Double(plain) else { return nil }
        let decimals = plain.firstIndex(of: ".").map { plain.distance(from: $0, to: plain.endIndex) - 1 } ?? 0
        let start = from + segment.distance(from: segment.startIndex, to: found.lowerBound)
        return Quoted(
            text: text, value: value, decimals: decimals, grouped: text.contains(","), start: start,
            end: start + text.count)
    }

    static func parseAnchor(kind: Anchor.Kind, _ body: String, path: String, line: Int) -> Result<Anchor, Problem> {
        func failure(_ message: String) -> Result<Anchor, Problem> {
            .failure(Problem(path: path, line: line, message: message))
        }
        guard let dot = body.range(of: "·") else {
            return failure(
                localized(
                    format: "an anchor names its capture, then \"·\", then where its figure is: %@",
                    "<!-- figure: lesson03 · \"hangs\" #1 -->"))
        }
        let capture = body[..<dot.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !capture.isEmpty else { return failure(localized("the anchor names no capture before \"·\"")) }
        if capture.contains("(") {
            return failure(localized("the capture is named without its language: the text's own is meant"))
        }
        let source = body[dot.upperBound...].trimmingCharacters(in: .whitespaces)
        var anchor = Anchor(
            kind: kind, path: path, line: line, capture: capture, source: source, expression: nil, tolerance: nil,
            conditions: [], quoted: nil)
        do {
            var parser = try ExpressionParser(source)
            switch kind {
            case .figure:
                anchor.expression = try parser.expression()
                if parser.take(.tilde) {
                    guard case .number(let share)? = parser.next() else {
                        throw ExpressionError(localized("a tolerance is written ~10%"))
                    }
                    parser.index += 1
                    guard parser.take(.percent) else { throw ExpressionError(localized("a tolerance is written ~10%")) }
                    anchor.tolerance = share / 100
                }
            case .claim:
                anchor.conditions = try parser.conditions()
            }
            guard parser.atEnd else {
                throw ExpressionError(localized(format: "unexpected \"%@\"", parser.rest))
            }
        } catch let error as ExpressionError {
            return failure(error.description)
        } catch {
            return failure("\(error)")
        }
        return .success(anchor)
    }
}
