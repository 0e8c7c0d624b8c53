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

    // MARK: - Expressions

    indirect enum Expression: Sendable {
        case number(Double)
        /// The `index`-th number (1-based) on the `occurrence`-th line that contains `text`, in
        /// the anchor's capture or in the one named (`[lesson03 variant threaded] "text" #2`).
        case locate(capture: String?, text: String, occurrence: Int, index: Int)
        case negate(Expression)
        case binary(Character, Expression, Expression)
        case call(String, [Expression])
    }

    struct Condition: Sendable {
        var left: Expression
        var comparison: String
        var right: Expression
    }

    struct ExpressionError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    enum Token: Equatable {
        case text(String)
        case capture(String)
        case number(Double)
        case word(String)
        case symbol(String)
        case tilde
        case percent
        case at
        case hash
    }

    static let comparisons = ["==", "!=", "<=", ">=", "<", ">"]

    struct ExpressionParser {
        var tokens: [Token]
        var index = 0

        init(_ source: String) throws {
            tokens = []
            let characters = Array(source)
            var position = 0
            while position < characters.count {
                let character = characters[position]
                if character.isWhitespace {
                    position += 1
                } else if character == "\"" {
                    guard let end = characters[(position + 1)...].firstIndex(of: "\"") else {
                        throw ExpressionError(localized("a quoted text is not closed"))
                    }
                    let text = String(characters[(position + 1)..<end])
                    guard !text.isEmpty else { throw ExpressionError(localized("a quoted text is empty")) }
                    tokens.append(.text(text))
                    position = end + 1
                } else if character == "[" {
                    guard let end = characters[(position + 1)...].firstIndex(of: "]") else {
                        throw ExpressionError(localized("a [capture] is not closed"))
                    }
                    let name = String(characters[(position + 1)..<end]).split(whereSeparator: \.isWhitespace)
                        .joined(separator: " ")
                    guard !name.isEmpty else { throw ExpressionError(localized("a [capture] is empty")) }
                    tokens.append(.capture(name))
                    position = end + 1
                } else if character.isNumber && character.isASCII || character == "." {
                    var end = position
                    while end < characters.count, characters[end].isASCII,
                        characters[end].isNumber || characters[end] == "."
                    {
                        end += 1
                    }
                    guard let value = Double(String(characters[position..<end])) else {
                        throw ExpressionError(
                            localized(format: "\"%@\" is no number", String(characters[position..<end])))
                    }
                    tokens.append(.number(value))
                    position = end
                } else if character.isLetter {
                    var end = position
                    while end < characters.count, characters[end].isLetter { end += 1 }
                    tokens.append(.word(String(characters[position..<end])))
                    position = end
                } else if let comparison = Figures.comparisons.first(where: {
                    Array($0) == Array(characters[position..<min(characters.count, position + $0.count)])
                }) {
                    tokens.append(.symbol(comparison))
                    position += comparison.count
                } else if "+-*/(),".contains(character) {
                    tokens.append(.symbol(String(character)))
                    position += 1
                } else if character == "~" {
                    tokens.append(.tilde)
                    position += 1
                } else if character == "%" {
                    tokens.append(.percent)
                    position += 1
                } else if character == "@" {
                    tokens.append(.at)
                    position += 1
                } else if character == "#" {
                    tokens.append(.hash)
                    position += 1
                } else {
                    throw ExpressionError(localized(format: "\"%@\" has no meaning in an anchor", String(character)))
                }
            }
        }

        var atEnd: Bool { index >= tokens.count }

        func next() -> Token? { index < tokens.count ? tokens[index] : nil }

        var rest: String { tokens[index...].map { "\($0)" }.joined(separator: " ") }

        mutating func take(_ token: Token) -> Bool {
            guard next() == token else { return false }
            index += 1
            return true
        }

        mutating func conditions() throws -> [Condition] {
            var conditions: [Condition] = []
            repeat {
                let left = try expression()
                guard case .symbol(let comparison)? = next(), Figures.comparisons.contains(comparison) else {
                    throw ExpressionError(localized("a claim compares: ==, !=, <, <=, >, >= (joined by \"and\")"))
                }
                index += 1
                conditions.append(Condition(left: left, comparison: comparison, right: try expression()))
            } while take(.word("and"))
            return conditions
        }

        mutating func expression() throws -> Expression {
            var result = try term()
            while case .symbol(let symbol)? = next(), symbol == "+" || symbol == "-" {
                index += 1
                result = .binary(Character(symbol), result, try term())
            }
            return result
        }

        mutating func term() throws -> Expression {
            var result = try factor()
            while case .symbol(let symbol)? = next(), symbol == "*" || symbol == "/" {
                index += 1
                result = .binary(Character(symbol), result, try factor())
            }
            return result
        }

        mutating func factor() throws -> Expression {
            switch next() {
            case .number(let value)?:
                index += 1
                return .number(value)
            case .symbol("-")?:
                index += 1
                return .negate(try factor())
            case .symbol("(")?:
                index += 1
                let inner = try expression()
                guard take(.symbol(")")) else { throw ExpressionError(localized("a \"(\" is not closed")) }
                return inner
            case .word(let name)? where ["min", "max", "abs"].contains(name):
                index += 1
                guard take(.symbol("(")) else { throw ExpressionError(localized(format: "%@ takes (...)", name)) }
                var arguments = [try expression()]
                while take(.symbol(",")) { arguments.append(try expression()) }
                guard take(.symbol(")")) else { throw ExpressionError(localized("a \"(\" is not closed")) }
                if name == "abs" && arguments.count != 1 {
                    throw ExpressionError(localized("abs takes one value"))
                }
                return .call(name, arguments)
            case .capture(let name)?:
                index += 1
                guard case .locate(nil, let text, let occurrence, let count) = try factor() else {
                    throw ExpressionError(localized("a [capture] is followed by \"text\" #n"))
                }
                return .locate(capture: name, text: text, occurrence: occurrence, index: count)
            case .text(let text)?:
                index += 1
                var occurrence = 1
                if take(.at) {
                    guard case .number(let count)? = next(), count >= 1, count == count.rounded() else {
                        throw ExpressionError(localized("\"text\"@2 is the second line that contains the text"))
                    }
                    index += 1
                    occurrence = Int(count)
                }
                guard take(.hash), case .number(let count)? = next(), count >= 1, count == count.rounded() else {
                    throw ExpressionError(
                        localized(format: "say which number on the line of \"%@\": \"%@\" #2", text, text))
                }
                index += 1
                return .locate(capture: nil, text: text, occurrence: occurrence, index: Int(count))
            default:
                throw ExpressionError(
                    localized(
                        format: "expected a figure (\"text\" #n), a number, min/max/abs or (: %@",
                        atEnd ? localized("the anchor ends") : rest))
            }
        }
    }

    // MARK: - Reading a capture

    /// One line of a captured block: its text and where it is.
    public struct CapturedLine: Sendable {
        public var path: String
        public var line: Int
        public var text: String
    }

    /// The texts the anchors are read against: each text's blocks, by path.
    public struct Library: Sendable {
        public var blocks: [String: [Captures.Block]]
        public var paths: [String]

        /// `texts`: each text's path under the package root and its contents.
        public init(texts: [(path: String, text: String)]) {
            var blocks: [String: [Captures.Block]] = [:]
            for (path, text) in texts { blocks[path] = Captures.blocks(in: text, path: path) }
            self.blocks = blocks
            paths = texts.map(\.path).sorted()
        }

        /// Every text of the package at `root` (`Captures.textPaths`).
        public init(root: URL) {
            self.init(
                texts: Captures.textPaths(root: root).compactMap { path in
                    (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
                })
        }

        /// The lines of the capture `name` in `language` that an anchor in `path` reads (see `Figures`).
        public func lines(of name: String, language: Language, for path: String) -> [CapturedLine]? {
            let lesson = Figures.lessonNumber(of: path)
            let lessonTexts = paths.filter { candidate in
                guard let lesson, Captures.language(ofPath: candidate) == language else { return false }
                let file = candidate.split(separator: "/").last.map(String.init) ?? ""
                let folder = language == .ja ? "Lessons/ja/" : "Lessons/"
                return candidate == folder + file && file.hasPrefix(lesson + "-") && file.hasSuffix(".md")
            }
            let others = paths.filter { Captures.language(ofPath: $0) == language }
            for candidate in [path] + lessonTexts + others {
                let found = (blocks[candidate] ?? []).filter { block in
                    guard let (command, _) = block.capture else { return false }
                    return command.language == language && Figures.name(of: command) == name
                }
                guard !found.isEmpty else { continue }
                return found.flatMap { block in
                    block.lines.enumerated().map {
                        CapturedLine(path: block.path, line: block.firstLine + $0.offset, text: $0.element)
                    }
                }
            }
            return nil
        }

        /// The names of the captures in `language`, for a message.
        func names(in language: Language) -> [String] {
            var names: Set<String> = []
            for path in paths where Captures.language(ofPath: path) == language {
                for block in blocks[path] ?? [] {
                    if let (command, _) = block.capture { names.insert(Figures.name(of: command)) }
                }
            }
            return names.sorted()
        }
    }

    /// The capture's name in an anchor: "lesson03 variant threaded image-width 4".
    public static func name(of command: Captures.Command) -> String {
        ([command.product]
            + command.arguments.map { argument in
                String(argument.drop { $0 == "-" })
            }).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The lesson's number NN of `Lessons/NN-topic.md`, `Lessons/ja/NN-topic.md` and `Lessons/docc/en/lessonNN.tutorial`.
    static func lessonNumber(of path: String) -> String? {
        let file = path.split(separator: "/").last.map(String.init) ?? ""
        let digits: Substring
        if file.hasPrefix("lesson") {
            digits = file.dropFirst(6).prefix { $0.isNumber }
        } else {
            digits = file.prefix { $0.isNumber }
        }
        return digits.count == 2 ? String(digits) : nil
    }

    /// A number of a captured line: `(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)*`, nil when it is no
    /// value (`127.0.0.1`).
    static let capturedPattern = #"(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)*"#

    /// The numbers on a captured line, in order.
    public static func numbers(on line: String) -> [(text: String, value: Double?)] {
        guard let expression = try? NSRegularExpression(pattern: capturedPattern) else { return [] }
        return expression.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { match in
            Range(match.range, in: line).map { range in
                let text = String(line[range])
                return (text, text.filter { $0 == "." }.count <= 1 ? Double(text) : nil)
            }
        }
    }

    /// A number read from a captured line.
    public struct Source: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        /// The text that found the line.
        public var text: String
        /// Which number on the line, 1-based.
        public var index: Int
        /// The number as the line prints it.
        public var number: String

        /// "Lessons/03-gcd-queues.md:249 "hangs" #2 = 0".
        public var description: String { "\(path):\(line) \"\(text)\" #\(index) = \(number)" }
    }

    /// A value and the numbers it was read from.
    struct Evaluated {
        var value: Double
        var sources: [Source]
    }

    /// The lines of a capture by its name, for an anchor.
    typealias Lookup = (String) throws -> [CapturedLine]

    static func evaluate(_ expression: Expression, lines: [CapturedLine], capture: String, lookup: Lookup) throws
        -> Evaluated
    {
        switch expression {
        case .number(let value):
            return Evaluated(value: value, sources: [])
        case .locate(let other?, let text, let occurrence, let index):
            return try evaluate(
                .locate(capture: nil, text: text, occurrence: occurrence, index: index), lines: try lookup(other),
                capture: other, lookup: lookup)
        case .locate(nil, let text, let occurrence, let index):
            let matching = lines.filter { $0.text.contains(text) }
            guard matching.count >= occurrence else {
                throw ExpressionError(
                    occurrence == 1
                        ? localized(format: "no line of the capture %1$@ contains \"%2$@\"", capture, text)
                        : localized(
                            format: "the capture %1$@ has %2$d lines that contain \"%3$@\", not %4$d", capture,
                            matching.count, text, occurrence))
            }
            let line = matching[occurrence - 1]
            let numbers = numbers(on: line.text)
            let listed = numbers.enumerated().map { "#\($0.offset + 1) \($0.element.text)" }.joined(separator: ", ")
            guard index <= numbers.count, let value = numbers[index - 1].value else {
                throw ExpressionError(
                    localized(
                        format: "%1$@:%2$d has no number #%3$d (%4$@)", line.path, line.line, index,
                        listed.isEmpty ? localized("no numbers") : listed))
            }
            return Evaluated(
                value: value,
                sources: [
                    Source(path: line.path, line: line.line, text: text, index: index, number: numbers[index - 1].text)
                ])
        case .negate(let inner):
            let evaluated = try evaluate(inner, lines: lines, capture: capture, lookup: lookup)
            return Evaluated(value: -evaluated.value, sources: evaluated.sources)
        case .binary(let symbol, let left, let right):
            let (a, b) = (
                try evaluate(left, lines: lines, capture: capture, lookup: lookup),
                try evaluate(right, lines: lines, capture: capture, lookup: lookup)
            )
            let value: Double
            switch symbol {
            case "+": value = a.value + b.value
            case "-": value = a.value - b.value
            case "*": value = a.value * b.value
            default:
                guard b.value != 0 else { throw ExpressionError(localized("a figure divides by zero")) }
                value = a.value / b.value
            }
            return Evaluated(value: value, sources: a.sources + b.sources)
        case .call(let name, let arguments):
            let values = try arguments.map { try evaluate($0, lines: lines, capture: capture, lookup: lookup) }
            let numbers = values.map(\.value)
            let value: Double
            switch name {
            case "min": value = numbers.min() ?? 0
            case "max": value = numbers.max() ?? 0
            default: value = abs(numbers[0])
            }
            return Evaluated(value: value, sources: values.flatMap(\.sources))
        }
    }

    // MARK: - Checking

    /// What an anchor says against its capture.
    public struct Reading: Sendable {
        public var anchor: Anchor
        /// A figure's value as the capture gives it; nil for a claim or when it cannot be read.
        public var value: Double?
        /// The figure as it should be written (the value to the quoted figure's decimals).
        public var written: String?
        /// The captured numbers it read.
        public var sources: [Source] = []
        /// nil when the figure or the claim agrees with the capture.
        public var problem: Problem?
    }

    /// `anchor` read against `library`.
    public static func read(_ anchor: Anchor, in library: Library) -> Reading {
        let language = Captures.language(ofPath: anchor.path)
        func failed(_ message: String) -> Reading {
            Reading(
                anchor: anchor, value: nil, written: nil,
                problem: Problem(path: anchor.path, line: anchor.line, message: message))
        }
        func missing(_ name: String) -> String {
            localized(
                format: "no capture %1$@ (%2$@) for this text; the captures are: %3$@", name, language.rawValue,
                library.names(in: language).joined(separator: "; "))
        }
        guard let lines = library.lines(of: anchor.capture, language: language, for: anchor.path) else {
            return failed(missing(anchor.capture))
        }
        let lookup: Lookup = { name in
            guard let lines = library.lines(of: name, language: language, for: anchor.path) else {
                throw ExpressionError(missing(name))
            }
            return lines
        }
        do {
            switch anchor.kind {
            case .figure:
                guard let expression = anchor.expression, let quoted = anchor.quoted else {
                    return failed(localized("the anchor has no figure"))
                }
                let evaluated = try evaluate(expression, lines: lines, capture: anchor.capture, lookup: lookup)
                let written = format(evaluated.value, like: quoted)
                guard !agrees(quoted, evaluated.value, tolerance: anchor.tolerance) else {
                    return Reading(
                        anchor: anchor, value: evaluated.value, written: written, sources: evaluated.sources,
                        problem: nil)
                }
                let allowed = anchor.tolerance.map { localized(format: " (within %@%%)", format($0 * 100)) } ?? ""
                return Reading(
                    anchor: anchor, value: evaluated.value, written: written, sources: evaluated.sources,
                    problem: Problem(
                        path: anchor.path, line: anchor.line,
                        message: localized(
                            format: "the text quotes %1$@, the capture says %2$@%3$@ (%4$@)", quoted.text, written,
                            allowed, evaluated.sources.map(\.description).joined(separator: "; "))))
            case .claim:
                var broken: [String] = []
                var sources: [Source] = []
                for condition in anchor.conditions {
                    let left = try evaluate(condition.left, lines: lines, capture: anchor.capture, lookup: lookup)
                    let right = try evaluate(condition.right, lines: lines, capture: anchor.capture, lookup: lookup)
                    sources += left.sources + right.sources
                    guard !holds(left.value, condition.comparison, right.value) else { continue }
                    broken.append(
                        "\(format(left.value)) \(condition.comparison) \(format(right.value)) ("
                            + (left.sources + right.sources).map(\.description).joined(separator: "; ") + ")")
                }
                var reading = Reading(anchor: anchor, value: nil, written: nil, sources: sources, problem: nil)
                if !broken.isEmpty {
                    reading.problem = Problem(
                        path: anchor.path, line: anchor.line,
                        message: localized(
                            format: "the claim \"%1$@\" no longer holds: %2$@", anchor.source,
                            broken.joined(separator: "; ")))
                }
                return reading
            }
        } catch let error as ExpressionError {
            return failed(error.description)
        } catch {
            return failed("\(error)")
        }
    }

    static func holds(_ left: Double, _ comparison: String, _ right: Double) -> Bool {
        let same = abs(left - right) <= 1e-9 * max(1, abs(left), abs(right))
        switch comparison {
        case "==": return same
        case "!=": return !same
        case "<": return left < right && !same
        case "<=": return left < right || same
        case ">": return left > right && !same
        default: return left > right || same
        }
    }

    /// Whether the quoted figure is `value` to its own decimals, or within `tolerance` of it.
    public static func agrees(_ quoted: Quoted, _ value: Double, tolerance: Double?) -> Bool {
        let off = abs(quoted.value - value)
        return off <= 0.5 * pow(10, -Double(quoted.decimals)) + 1e-9
            || tolerance.map { off <= $0 * abs(value) + 1e-9 } == true
    }

    /// `value` written like `quoted`: its decimals, its thousands separators.
    public static func format(_ value: Double, like quoted: Quoted) -> String {
        var text = String(format: "%.\(quoted.decimals)f", value)
        if text.hasPrefix("-"), Double(text) == 0 { text.removeFirst() }
        guard quoted.grouped else { return text }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var digits = Array(parts[0])
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        grouped = String(digits) + grouped
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// A value for a message: as few decimals as show it (up to 4).
    static func format(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Every anchor of the texts at `paths` in `library`'s texts (`texts`), read.
    public static func readings(texts: [(path: String, text: String)], library: Library) -> (
        readings: [Reading], problems: [Problem]
    ) {
        var readings: [Reading] = []
        var problems: [Problem] = []
        for (path, text) in texts {
            let found = anchors(in: text, path: path)
            problems += found.problems
            for anchor in found.anchors {
                let reading = read(anchor, in: library)
                readings.append(reading)
                if let problem = reading.problem { problems.append(problem) }
            }
        }
        return (readings, problems.sorted { ($0.path, $0.line) < ($1.path, $1.line) })
    }

    // MARK: - Writing

    /// `text` with every figure whose anchor reads a different value written from its capture;
    /// a claim is never written. Returns the text and how many figures were written.
    public static func updated(_ text: String, path: String, library: Library) -> (text: String, written: Int) {
        let found = anchors(in: text, path: path).anchors.filter { $0.kind == .figure }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }
        var written = 0
        // From the end of each line, so that a shorter or longer figure moves nothing still to write.
        for anchor in found.reversed() {
            let reading = read(anchor, in: library)
            guard reading.problem != nil, reading.value != nil, let quoted = anchor.quoted,
                let figure = reading.written
            else { continue }
            lines[anchor.line - 1].replaceSubrange(quoted.start..<quoted.end, with: Array(figure))
            written += 1
        }
        return (lines.map { String($0) }.joined(separator: "\n"), written)
    }
}

// MARK: - Pictures

extension Figures {
    /// The words of an SVG picture: its `<text>` elements' contents, unescaped, in order.
    public static func pictureText(_ svg: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: #"<text[^>]*>([^<]*)</text>"#) else { return "" }
        return expression.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).compactMap { match in
            Range(match.range(at: 1), in: svg).map { String(svg[$0]) }
        }.joined(separator: " ")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Where a capture's picture (`svg "..."`) is missing, or is not of the run its blocks quote:
    /// the picture's caption is the run's takeaway, so the last line of the command's blocks in
    /// that text must be in the picture's words (spaces aside: a caption is wrapped).
    public static func pictureProblems(library: Library, root: URL) -> [Problem] {
        picturesOutOfStep(library: library, root: root).map(\.problem)
    }

    /// The commands whose picture is missing or not of the run their blocks quote: the update
    /// draws them again, with their blocks.
    public static func commandsWithStalePictures(library: Library, root: URL) -> Set<Captures.Command> {
        Set(picturesOutOfStep(library: library, root: root).map(\.command))
    }

    static func picturesOutOfStep(library: Library, root: URL) -> [(command: Captures.Command, problem: Problem)] {
        var problems: [(Captures.Command, Problem)] = []
        for path in library.paths {
            for block in library.blocks[path] ?? [] {
                guard let (command, rules) = block.capture else { continue }
                for picture in Captures.pictures(in: rules) {
                    guard
                        let svg = try? String(contentsOf: root.appendingPathComponent(picture), encoding: .utf8)
                    else {
                        problems.append(
                            (
                                command,
                                Problem(
                                    path: path, line: block.fenceLine - 1,
                                    message: localized(
                                        format: "%@ is missing: `swift run workshop captures --update` draws it",
                                        picture))
                            ))
                        continue
                    }
                    let lines = library.lines(of: name(of: command), language: command.language, for: path) ?? []
                    guard
                        let last = lines.last(where: { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty })
                    else { continue }
                    func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
                    if !squeezed(pictureText(svg)).contains(squeezed(last.text)) {
                        problems.append(
                            (
                                command,
                                Problem(
                                    path: path, line: block.fenceLine - 1,
                                    message: localized(
                                        format:
                                            "%1$@ is not of the run this capture quotes: its caption is not %2$@:%3$d. `swift run workshop captures --update %4$@` writes both from one run",
                                        picture, last.path, last.line, path))
                            ))
                    }
                }
            }
        }
        return problems
    }
}
