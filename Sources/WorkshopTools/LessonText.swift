import Foundation

/// What a lesson text (Lessons/NN-*.md, or its Japanese twin in Lessons/ja) says about running
/// things: the `swift run` lines quoted in its fenced code blocks, with the heading they stand
/// under, and its demos. One reader for the test that checks every quoted line and for
/// `workshop present`, which walks a lesson's demos: the text is the one source of both.
public enum LessonText {
    /// One `swift run` line in a fenced code block.
    public struct QuotedCommand: Sendable, Equatable {
        /// 1-based line number in the text.
        public var line: Int
        /// The nearest heading above it, without its `#`s ("Second demo: a wider image queue").
        public var heading: String
        /// The heading's level: 2 for "## Demo", 3 for "### Second demo: ...".
        public var headingLevel: Int
        /// The heading's 1-based line number (0 when there is none above).
        public var headingLine: Int
        /// The program run ("lesson03", "fixture-server", "workshop").
        public var product: String
        /// Its arguments, as the shell would split them (quotes and a `# comment` taken off).
        public var arguments: [String]
        /// The line as quoted, without a leading "$ " and a trailing "# comment".
        public var text: String
        /// That comment ("terminal 2"), without its "#"; empty when there is none.
        public var comment: String = ""
    }

    /// Every `swift run` line (or `$ swift run`) in the fenced code blocks of `text`.
    public static func quotedCommands(in text: String) -> [QuotedCommand] {
        var commands: [QuotedCommand] = []
        var inCode = false
        var heading = ("", 0, 0)
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            if !inCode, let parsed = Self.heading(line) {
                heading = (parsed.0, parsed.1, number + 1)
                continue
            }
            guard inCode else { continue }
            let command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
            guard command.hasPrefix("swift run ") else { continue }
            var words = shellWords(command)
            words.removeFirst(2)  // "swift", "run"
            guard let product = words.first else { continue }
            let parts = command.split(separator: "#", maxSplits: 1).map(String.init)
            let shown = parts.first ?? command
            commands.append(
                QuotedCommand(
                    line: number + 1, heading: heading.0, headingLevel: heading.1, headingLine: heading.2,
                    product: product,
                    arguments: Array(words.dropFirst()), text: shown.trimmingCharacters(in: .whitespaces),
                    comment: parts.dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? ""))
        }
        return commands
    }

    /// "## Demo" as ("Demo", 2); nil for a line that is no heading.
    static func heading(_ line: String) -> (String, Int)? {
        let level = line.prefix { $0 == "#" }.count
        guard level > 0, line.dropFirst(level).hasPrefix(" ") else { return nil }
        return (line.dropFirst(level + 1).trimmingCharacters(in: .whitespaces), level)
    }

    /// Splits a shell line into words: quotes, a trailing `# comment`, and `&&`/`|` (the line ends there).
    public static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == " " {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else if character == "#" && word.isEmpty && !started {
                break
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        if let end = words.firstIndex(where: { ["&&", "|", ";", "||", ">", "2>&1"].contains($0) }) {
            words = Array(words[..<end])
        }
        return words
    }
}
