import Foundation
import WorkshopCore

extension Figures {
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
}
