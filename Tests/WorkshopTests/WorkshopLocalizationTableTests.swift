import Foundation
import Testing

/// `workshop`'s Japanese table (Sources/workshop/Resources/ja.lproj/Localizable.strings) keeps up
/// with the code: every English text the code looks up (`localized("...")` or
/// `localized(format: "...", ...)` in Sources/workshop) has its Japanese, and every Japanese
/// text takes the same arguments as its English key (same conversions, positional or in order),
/// so `String(format:)` never reads an argument that is not there.
@Suite struct WorkshopLocalizationTableTests {
    static let sources = JapaneseTexts.root.appendingPathComponent("Sources/workshop")

    static func table() throws -> [String: String] {
        let data = try Data(contentsOf: sources.appendingPathComponent("Resources/ja.lproj/Localizable.strings"))
        let table = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        return try #require(table, "the table reads as a dictionary of strings")
    }

    /// The English keys the code looks up with a string literal (one line, or a multi-line
    /// literal whose lines end in `\` or a line break), with the file each is in.
    static func keysInCode() throws -> [(key: String, file: String)] {
        var keys: [(String, String)] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        let call = try NSRegularExpression(pattern: #"localized\(\s*(?:format:\s*)?(""")?"#)
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let whole = NSRange(text.startIndex..., in: text)
            for match in call.matches(in: text, range: whole) {
                guard let end = Range(match.range, in: text)?.upperBound else { continue }
                let rest = text[end...]
                if match.range(at: 1).location != NSNotFound {
                    guard let close = rest.range(of: "\"\"\"") else { continue }
                    keys.append((multiLine(String(rest[..<close.lowerBound])), file))
                } else if rest.first == "\"" {
                    keys.append((unescaped(singleLine(rest.dropFirst())), file))
                }
            }
        }
        return keys.filter { !$0.0.contains("\\(") }  // an interpolated key is no key
    }

    /// The literal's text up to its closing quote (escapes kept).
    static func singleLine(_ text: Substring) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if !escaped && character == "\"" { break }
            escaped = !escaped && character == "\\"
            result.append(character)
        }
        return result
    }

    /// A `"""` literal's text: its lines less the closing delimiter's indentation, joined with
    /// line breaks except after a `\`.
    static func multiLine(_ body: String) -> String {
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let indent = lines.popLast()?.count ?? 0
        var text = ""
        for (index, line) in lines.enumerated() {
            let content = String(line.dropFirst(min(indent, line.count)))
            if content.hasSuffix("\\") {
                text += content.dropLast()
            } else {
                text += content + (index < lines.count - 1 ? "\n" : "")
            }
        }
        return unescaped(text)
    }

    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The arguments a format reads: (position, conversion), sorted, e.g. [(1, "@"), (2, "d")].
    static func arguments(_ format: String) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"%(?:(\d+)\$)?[-+ 0#]*\d*(?:\.\d+)?(?:l|ll)?([@dfs%])"#)
        var next = 0
        var found: [String] = []
        for match in pattern?.matches(in: format, range: NSRange(format.startIndex..., in: format)) ?? [] {
            guard let conversion = Range(match.range(at: 2), in: format).map({ String(format[$0]) }),
                conversion != "%"
            else { continue }
            let position: Int
            if let explicit = Range(match.range(at: 1), in: format).flatMap({ Int(format[$0]) }) {
                position = explicit
            } else {
                next += 1
                position = next
            }
            found.append("\(position)\(conversion)")
        }
        return Set(found).sorted()
    }

    @Test func everyTextTheCodeLooksUpHasItsJapanese() async throws {
        let table = try Self.table()
        let keys = try Self.keysInCode()
        #expect(keys.count > 150, "the scan finds the code's texts")
        for (key, file) in keys {
            #expect(table[key] != nil, "\(file): no Japanese for \"\(key)\"")
        }
    }

    @Test func everyJapaneseTextTakesItsKeysArguments() async throws {
        for (key, value) in try Self.table() {
            #expect(Self.arguments(value) == Self.arguments(key), "\"\(key)\" = \"\(value)\"")
            #expect(!value.isEmpty, "\(key)")
        }
    }
}
