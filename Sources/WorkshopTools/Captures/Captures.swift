import Foundation
import WorkshopCore

/// What the texts show a program printing, written from real runs and checked against them.
///
/// Every fenced block of the texts (`Lessons/**/*.md`, `Exercises/*/README*.md`,
/// `Lessons/docc/**/*.tutorial`) that shows what a program prints stands right under a marker,
/// an HTML comment (GitHub's Markdown and DocC both hide it) that says where the block came from:
///
///     <!-- capture: swift run lesson03 --rows 8 (ja) -->
///     <!-- capture: swift run lesson03 (en); from "async:" -->
///     <!-- capture: swift run lesson02 --variant threaded (en); frames 3; to "metric" -->
///     <!-- capture: swift run lesson03 (ja); from "async:"; svg "Lessons/images/lesson03-ja.svg" -->
///     <!-- illustration: the server's log; it needs a second terminal, so it is not checked -->
///     <!-- quote: the article's code -->
///
/// A *capture* names the command that made it and the language it ran in (`--lang en|ja`, the
/// text's own), then rules that keep some of its lines (see `Rule`). `workshop captures --update`
/// runs each command (the built program, never `swift run`) and writes what it printed;
/// the tests run them again and compare, numbers and whatever else varies from run to run
/// masked by one normaliser (`normalised`). An *illustration* is output that cannot be made
/// here (a second terminal, a room server, a tool that is not ours); a *quote* is an article's
/// text: both are left alone.
///
/// The figures the texts' sentences, quizzes and steps quote from these blocks are tied to them
/// by anchors (`Figures`), and a capture's picture (`svg "..."`) is written by the run that
/// writes its block: so the update writes every block of a command from one run, the figures
/// from the blocks, and the picture with them.
///
/// Here: the markers' grammar. A text's blocks and writing them are in `Captures+Blocks`, the
/// rules, the normaliser and the comparison in `+Comparing`, the phrases a program picks by what
/// it measured in `+Choices`, the runs in `+Running`.
public enum Captures {
    /// The programs a capture may run: the package's own, from its build folder.
    public static func isProgram(_ name: String) -> Bool { programs.contains(name) }

    /// fixture-server, workshop, and a lessonNN for every lesson in Sources/ (a new lesson's too).
    public static let programs: Set<String> = {
        let sources = ExerciseRoot.builtFrom.appendingPathComponent("Sources").path
        let lessons = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).filter {
            $0.range(of: #"^lesson\d\d$"#, options: .regularExpression) != nil
        }
        return Set(lessons + ["fixture-server", "workshop"])
    }()

    /// How long one run may take unless its marker says otherwise (`timeout 300`).
    public static let defaultTimeout: Double = 180

    // MARK: - Markers

    public enum Kind: String, Sendable, CaseIterable {
        case capture, illustration, quote
    }

    /// A program run: the product, its arguments, and the language it speaks.
    public struct Command: Hashable, Sendable, CustomStringConvertible {
        public var product: String
        public var arguments: [String]
        public var language: Language

        public init(product: String, arguments: [String], language: Language) {
            self.product = product
            self.arguments = arguments
            self.language = language
        }

        /// As the marker writes it: "swift run lesson03 --rows 8 (ja)".
        public var description: String {
            (["swift", "run", product] + arguments.map(Self.quoted)).joined(separator: " ")
                + " (\(language.rawValue))"
        }

        static func quoted(_ word: String) -> String {
            word.isEmpty || word.contains(where: { " \"'#;".contains($0) }) ? "\"\(word)\"" : word
        }
    }

    /// Which of a run's lines a capture keeps. Applied in this order, whatever order the marker
    /// gives them: `lines`, then `from`, then `to`/`until`, then `frames`.
    public enum Rule: Hashable, Sendable, CustomStringConvertible {
        /// `lines 3-12` (or `lines 3-`): those lines of the output, 1-based.
        case lines(Int, Int?)
        /// `from "text"`: from the first line that contains the text.
        case from(String)
        /// `to "text"`: up to and with the first line (from the start kept) that contains the text.
        case to(String)
        /// `until "text"`: up to the first line (from the start kept) that contains the text, without it.
        case until(String)
        /// `frames 3`: each list of a Screen's frames (the lines that start with a time,
        /// "    0.160 s  reload: 20 rows") cut to its first and last 3, with "..." between.
        case frames(Int)
        /// `timeout 300`: the run's time limit in seconds (the default is `defaultTimeout`).
        case timeout(Double)
        /// `svg "Lessons/images/lesson03.svg"`: the run's picture (`--svg`), written with the block
        /// by `--update` (the same run); a Japanese run's picture is named `...-ja.svg`.
        case svg(String)

        public var description: String {
            switch self {
            case .lines(let first, let last): "lines \(first)-\(last.map(String.init) ?? "")"
            case .from(let text): "from \"\(text)\""
            case .to(let text): "to \"\(text)\""
            case .until(let text): "until \"\(text)\""
            case .frames(let count): "frames \(count)"
            case .timeout(let seconds): "timeout \(Int(seconds))"
            case .svg(let path): "svg \"\(path)\""
            }
        }

        var order: Int {
            switch self {
            case .lines: 0
            case .from: 1
            case .to, .until: 2
            case .frames: 3
            case .timeout: 4
            case .svg: 5
            }
        }
    }

    public struct Marker: Sendable, Equatable {
        public var kind: Kind
        /// A capture's command; nil for an illustration or a quote.
        public var command: Command?
        public var rules: [Rule]
        /// What an illustration or a quote says it is.
        public var note: String

        public var timeout: Double {
            rules.lazy.compactMap { if case .timeout(let seconds) = $0 { seconds } else { nil } }.first
                ?? Captures.defaultTimeout
        }

        /// The pictures its run writes (`svg "..."`).
        public var pictures: [String] { Captures.pictures(in: rules) }
    }

    /// Why a marker does not parse.
    public struct MarkerError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The marker in `line` ("<!-- capture: ... -->"); nil when the line is no marker at all
    /// (no HTML comment that starts with a kind and a colon); an error when it is one that does
    /// not parse.
    public static func marker(in line: String) -> Result<Marker, MarkerError>? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!--") else { return nil }
        var inside = trimmed.dropFirst(4).trimmingCharacters(in: .whitespaces)
        guard let colon = inside.firstIndex(of: ":") else { return nil }
        let word = String(inside[..<colon]).trimmingCharacters(in: .whitespaces)
        guard let kind = Kind(rawValue: word) else {
            return Kind.allCases.contains { word.lowercased().hasPrefix($0.rawValue) }
                ? .failure(MarkerError(description: "\"\(word)\" is no kind of marker: capture, illustration or quote"))
                : nil
        }
        guard inside.hasSuffix("-->") else {
            return .failure(MarkerError(description: "the marker must end on its own line, with -->"))
        }
        inside = String(inside.dropLast(3))
        let body = inside[inside.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard kind == .capture else {
            return body.isEmpty
                ? .failure(MarkerError(description: "say what the \(kind.rawValue) is, after \"\(kind.rawValue):\""))
                : .success(Marker(kind: kind, command: nil, rules: [], note: body))
        }
        return parseCapture(body).map { Marker(kind: .capture, command: $0.0, rules: $0.1, note: "") }
    }

    /// "swift run lesson03 --rows 8 (ja); from \"async:\"" as a command and its rules.
    static func parseCapture(_ body: String) -> Result<(Command, [Rule]), MarkerError> {
        func failure(_ text: String) -> Result<(Command, [Rule]), MarkerError> {
            .failure(MarkerError(description: text))
        }
        let parts = splitOutsideQuotes(body, at: ";")
        let command = parts[0].trimmingCharacters(in: .whitespaces)
        guard command.hasPrefix("swift run ") else {
            return failure("a capture starts with the command that made it: \"swift run PROGRAM ... (en)\"")
        }
        guard command.hasSuffix(")"), let open = command.range(of: " (", options: .backwards),
            let language = Language(rawValue: String(command[open.upperBound...].dropLast()))
        else { return failure("the command ends with its language, \"(en)\" or \"(ja)\"") }
        var words = LessonText.shellWords(String(command[..<open.lowerBound]))
        words.removeFirst(2)
        guard let product = words.first, isProgram(product) else {
            return failure(
                "\"\(words.first ?? "")\" is none of the programs: \(programs.sorted().joined(separator: ", "))")
        }
        let arguments = Array(words.dropFirst())
        if arguments.contains(where: { $0 == "--lang" || $0.hasPrefix("--lang=") }) {
            return failure("the language is the marker's \"(\(language.rawValue))\", not a --lang flag")
        }
        if arguments.contains(where: { $0 == "--server" || $0.hasPrefix("--server=") }) {
            return failure("a run against --server is no capture: mark it as an illustration")
        }
        var rules: [Rule] = []
        for part in parts.dropFirst() {
            switch parseRule(part.trimmingCharacters(in: .whitespaces)) {
            case .success(let rule): rules.append(rule)
            case .failure(let error): return .failure(error)
            }
        }
        return .success((Command(product: product, arguments: arguments, language: language), rules))
    }

    static func parseRule(_ text: String) -> Result<Rule, MarkerError> {
        let failure = Result<Rule, MarkerError>.failure(
            MarkerError(
                description:
                    "\"\(text)\" is no rule: lines 3-12, lines 3-, from \"text\", to \"text\", until \"text\", frames 3, timeout 300, svg \"Lessons/images/NAME.svg\""
            ))
        let (word, rest) =
            text.firstIndex(of: " ").map {
                (String(text[..<$0]), text[text.index(after: $0)...].trimmingCharacters(in: .whitespaces))
            } ?? (text, "")
        func quoted() -> String? {
            guard rest.count >= 3, rest.hasPrefix("\""), rest.hasSuffix("\"") else { return nil }
            return String(rest.dropFirst().dropLast())
        }
        switch word {
        case "lines":
            let ends = rest.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let first = Int(ends[0]), first >= 1 else { return failure }
            if ends[1].isEmpty { return .success(.lines(first, nil)) }
            guard let last = Int(ends[1]), last >= first else { return failure }
            return .success(.lines(first, last))
        case "from": return quoted().map { .success(.from($0)) } ?? failure
        case "to": return quoted().map { .success(.to($0)) } ?? failure
        case "until": return quoted().map { .success(.until($0)) } ?? failure
        case "frames": return Int(rest).flatMap { $0 >= 1 ? .success(.frames($0)) : nil } ?? failure
        case "timeout": return Double(rest).flatMap { $0 > 0 ? .success(.timeout($0)) : nil } ?? failure
        case "svg":
            guard let path = quoted(), path.hasPrefix(picturesFolder + "/"), path.hasSuffix(".svg"),
                !path.dropFirst(picturesFolder.count + 1).contains("/")
            else {
                return .failure(
                    MarkerError(
                        description: "a picture is svg \"\(picturesFolder)/NAME.svg\", where the tutorials find it"))
            }
            return .success(.svg(path))
        default: return failure
        }
    }

    /// Where the pictures are: the lesson texts link them, `workshop docs` copies them by name.
    public static let picturesFolder = "Lessons/images"

    /// The pictures `rules` name.
    public static func pictures(in rules: [Rule]) -> [String] {
        rules.compactMap { if case .svg(let path) = $0 { path } else { nil } }
    }

    /// The language a picture is in by its name: `lesson03-ja.svg` is Japanese.
    public static func language(ofPicture path: String) -> Language {
        path.hasSuffix("-ja.svg") ? .ja : .en
    }

    /// `text` split at each `separator` that is not inside double quotes.
    static func splitOutsideQuotes(_ text: String, at separator: Character) -> [String] {
        var parts = [""]
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == separator && !quoted {
                parts.append("")
            } else {
                parts[parts.count - 1].append(character)
            }
        }
        return parts
    }
}
