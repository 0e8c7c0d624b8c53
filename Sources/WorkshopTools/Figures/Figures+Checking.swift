import Foundation
import WorkshopCore

extension Figures {
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
}
