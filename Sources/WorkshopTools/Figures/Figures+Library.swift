import Foundation
import WorkshopCore

extension Figures {
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
        public init(root: URL) { self.init(texts: Captures.texts(root: root)) }

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
}
