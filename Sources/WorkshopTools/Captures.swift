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

    // MARK: - Blocks

    /// One fenced block of a text, with the marker above it (if any).
    public struct Block: Sendable {
        /// The text's path under the package root ("Lessons/ja/03-gcd-queues.md").
        public var path: String
        /// 1-based line of the opening fence.
        public var fenceLine: Int
        /// The fence's info string ("", "swift", "objc").
        public var info: String
        /// What the fence is indented by (a block in a list item, in a tutorial's directive).
        public var indent: String
        /// The block's lines, without the indent.
        public var lines: [String]
        /// The marker on the line right above the fence: nil when there is none.
        public var marker: Result<Marker, MarkerError>?

        /// 1-based line of the block's first line.
        public var firstLine: Int { fenceLine + 1 }

        /// "Lessons/03-gcd-queues.md:87".
        public var location: String { "\(path):\(fenceLine)" }

        /// The language the text is written in: Japanese under a `ja` folder or in `README.ja.md`.
        public var language: Language { Captures.language(ofPath: path) }

        /// The marker when it is a capture that parses.
        public var capture: (command: Command, rules: [Rule])? {
            guard case .success(let marker) = marker, let command = marker.command else { return nil }
            return (command, marker.rules)
        }
    }

    public static func language(ofPath path: String) -> Language {
        path.split(separator: "/").contains("ja") || path.hasSuffix(".ja.md") ? .ja : .en
    }

    /// The fenced blocks of `text` (a Markdown text or a DocC tutorial), in order.
    public static func blocks(in text: String, path: String) -> [Block] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                index += 1
                continue
            }
            let indent = String(line.prefix { $0 == " " })
            var end = index + 1
            while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
            let body = lines[(index + 1)..<min(end, lines.count)].map { line in
                line.hasPrefix(indent)
                    ? String(line.dropFirst(indent.count)) : line.trimmingCharacters(in: .whitespaces)
            }
            blocks.append(
                Block(
                    path: path, fenceLine: index + 1, info: String(trimmed.dropFirst(3)), indent: indent, lines: body,
                    marker: index > 0 ? marker(in: lines[index - 1]) : nil))
            index = end + 1
        }
        return blocks
    }

    /// The texts whose blocks are marked, relative to `root`, sorted: `Lessons/**/*.md`,
    /// `Exercises/*/README*.md` and `Lessons/docc/**/*.tutorial`.
    public static func textPaths(root: URL) -> [String] {
        var paths: [String] = []
        let files = FileManager.default
        if let walker = files.enumerator(atPath: root.appendingPathComponent("Lessons").path) {
            for case let file as String in walker where file.hasSuffix(".md") || file.hasSuffix(".tutorial") {
                paths.append("Lessons/" + file)
            }
        }
        let exercises = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Exercises").path)) ?? []
        for folder in exercises {
            let names =
                (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Exercises/" + folder).path))
            for name in names ?? [] where name.hasPrefix("README") && name.hasSuffix(".md") {
                paths.append("Exercises/\(folder)/\(name)")
            }
        }
        return paths.sorted()
    }

    /// Every fenced block of every text under `root`.
    public static func blocks(root: URL) -> [Block] {
        textPaths(root: root).flatMap { path in
            (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map {
                blocks(in: $0, path: path)
            } ?? []
        }
    }

    /// The lines a shell block may hold that are not output: a command (as typed, or after "$ ").
    static let commandStarts = [
        "swift ", "bash ", "curl ", "git ", "rm ", "sqlite3 ", ".build/", "cd ", "echo ", "open ", "python3 ",
        "export ", "SAKUSAKU_", "WORKSHOP_", "LANG=", "NO_COLOR=", "$ ", "#",
    ]

    /// Whether `block` shows what a program printed, by its look: a block without a language
    /// (or marked `text`/`console`) with a line that is not a command or a shell comment. Code
    /// (```swift, ```objc) is not output.
    public static func looksLikeOutput(_ block: Block) -> Bool {
        guard ["", "text", "console", "shell-session"].contains(block.info.trimmingCharacters(in: .whitespaces))
        else { return false }
        return block.lines.contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !commandStarts.contains { trimmed.hasPrefix($0) }
        }
    }

    // MARK: - Keeping some lines

    /// The lines of `output` that `rules` keep.
    public static func selected(_ output: [String], rules: [Rule]) -> [String] {
        var lines = output
        for rule in rules.sorted(by: { $0.order < $1.order }) {
            switch rule {
            case .lines(let first, let last):
                let end = min(last ?? lines.count, lines.count)
                lines = first <= end ? Array(lines[(first - 1)..<end]) : []
            case .from(let text):
                lines = lines.firstIndex { $0.contains(text) }.map { Array(lines[$0...]) } ?? []
            case .to(let text):
                if let end = lines.firstIndex(where: { $0.contains(text) }) { lines = Array(lines[...end]) }
            case .until(let text):
                if let end = lines.firstIndex(where: { $0.contains(text) }) { lines = Array(lines[..<end]) }
            case .frames(let count):
                lines = cutFrames(lines, keeping: count)
            case .timeout, .svg:
                break
            }
        }
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// "    0.160 s  reload: 20 rows": a line of a Screen's frames (the time since the variant
    /// started, then what the frame showed, its events joined by "; ").
    static let framePattern = #"^\s+\d+\.\d+ s  \S"#

    static func isFrame(_ line: String) -> Bool { line.range(of: framePattern, options: .regularExpression) != nil }

    /// The line that stands for the frames `frames N` leaves out.
    static let elision = "..."

    static func cutFrames(_ lines: [String], keeping count: Int) -> [String] {
        var result: [String] = []
        var run: [String] = []
        func flush() {
            if run.count > 2 * count + 1 {
                let indent = String(run[0].prefix { $0 == " " })
                result += run.prefix(count) + [indent + elision] + run.suffix(count)
            } else {
                result += run
            }
            run = []
        }
        for line in lines {
            if isFrame(line) {
                run.append(line)
            } else {
                flush()
                result.append(line)
            }
        }
        flush()
        return result
    }

    // MARK: - The normaliser

    /// One line of a block as the comparison sees it, with the index (0-based, in the block) of
    /// the line it stands for.
    public struct NormalLine: Sendable, Equatable {
        public var index: Int
        public var text: String
        /// For a Screen's frames: the set of their events (`text` lists them).
        public var events: Set<String>? = nil
    }

    /// `lines` (a block as written, or a run's output after its rules) as the comparison sees
    /// them: what the words, rows, check names and headings are, without what varies from one
    /// run to the next. By rule, for every block alike:
    ///
    /// - numbers are `#` (times, counts, ports, addresses, sizes; a UUID and a hex address too),
    ///   the English noun after one is singular ("# request" for "2 requests": the count decides
    ///   it), and runs of spaces are one space (a wider number moves a table's columns);
    /// - a Screen's frames (consecutive lines that start with a time) are one line: the set of
    ///   their events, sorted, each once (how a frame's events group onto lines, how many frames
    ///   there were, and the order of those that race vary; `...` is left out);
    /// - a timeline's bars ("main |██··█|") are one line: the set of its lanes, sorted;
    /// - a table is its heading (the line above a line of dashes) and its rows, each row's words
    ///   sorted (the completion order of racing requests); the dashes are "---";
    /// - a phrase the program picks by what it measured (`Choices`: a quiet or a busy machine,
    ///   "as free and as fast as" or "but slower", "compiled in" or "built before") is the
    ///   group's first phrase, and a phrase it only adds on a busy machine is left out.
    public static func normalised(_ lines: [String], language: Language, choices: Choices) -> [NormalLine] {
        var result: [NormalLine] = []
        var index = 0
        let clean = lines.map(withoutTerminalCodes)
        while index < clean.count {
            let line = clean[index]
            if isFrame(line)
                || (line.trimmingCharacters(in: .whitespaces) == elision && index > 0 && isFrame(clean[index - 1]))
            {
                var events: Set<String> = []
                let start = index
                while index < clean.count,
                    isFrame(clean[index]) || clean[index].trimmingCharacters(in: .whitespaces) == elision
                {
                    let text = clean[index]
                    if let gap = text.range(of: " s  ") {
                        for event in text[gap.upperBound...].components(separatedBy: "; ") {
                            events.insert(masked(event))
                        }
                    }
                    index += 1
                }
                result.append(
                    NormalLine(
                        index: start, text: "frames: " + events.sorted().joined(separator: " | "), events: events))
                continue
            }
            if lane(line) != nil {
                var lanes: [String] = []
                let start = index
                while index < clean.count, let name = lane(clean[index]) {
                    lanes.append(masked(name))
                    index += 1
                }
                result.append(NormalLine(index: start, text: "lanes: " + lanes.sorted().joined(separator: " | ")))
                continue
            }
            if isRule(line) {
                result.append(NormalLine(index: index, text: "---"))
                index += 1
                // The table's rows, up to the first blank line.
                while index < clean.count, !clean[index].trimmingCharacters(in: .whitespaces).isEmpty,
                    !isRule(clean[index])
                {
                    let words = choices.applied(to: masked(clean[index]), language: language)
                    if !words.isEmpty {
                        let sorted = words.split(separator: " ").sorted().joined(separator: " ")
                        result.append(NormalLine(index: index, text: "row: " + sorted))
                    }
                    index += 1
                }
                continue
            }
            let text = choices.applied(to: masked(line), language: language)
            // A line that was only an added phrase is gone; a blank line stays.
            if !text.isEmpty || line.trimmingCharacters(in: .whitespaces).isEmpty {
                result.append(NormalLine(index: index, text: text))
            }
            index += 1
        }
        while result.last?.text.isEmpty == true { result.removeLast() }
        return result
    }

    /// `main |███··█|` as "main"; nil for a line that is no lane of a timeline.
    static func lane(_ line: String) -> String? {
        guard line.hasSuffix("|"), let bar = line.dropLast().lastIndex(of: "|") else { return nil }
        let bars = line[line.index(after: bar)..<line.index(before: line.endIndex)]
        guard !bars.isEmpty, bars.allSatisfy({ "█·".contains($0) }) else { return nil }
        let name = line[..<bar].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// A table's rule: a line of dashes only.
    static func isRule(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count >= 10 && trimmed.allSatisfy { $0 == "-" }
    }

    /// Numbers as `#` (and the noun after one singular), runs of spaces as one, no space at either end.
    public static func masked(_ text: String) -> String {
        var text = text
        for (pattern, replacement) in [
            (#"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#, "#"),
            (#"0x[0-9A-Fa-f]+"#, "#"),
            (#"[0-9]+(?:[.,:][0-9]+)*"#, "#"),
            (#"\s+"#, " "),
            // A count's noun is singular or plural as the count says: "# request", "# more requests".
            (#"# ((?:more |other )?[A-Za-z]{2,})s\b"#, "# $1"),
        ] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    static func withoutTerminalCodes(_ line: String) -> String {
        let text =
            line.contains("\u{1B}")
            ? line.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression) : line
        return text.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
    }

    // MARK: - Comparing

    /// A line where a block and a run differ: `line` is the text's 1-based line number.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        /// The block's line as normalised (nil: the run printed a line the block does not have).
        public var quoted: String?
        /// The run's line as normalised (nil: the block has a line the run did not print).
        public var printed: String?

        /// "Lessons/03-gcd-queues.md:95: the text quotes "…", the run printed "…"" (normalised, as compared).
        public var description: String {
            let place = "\(path):\(line)"
            switch (quoted, printed) {
            case (let quoted?, let printed?):
                return localized(
                    format: "%1$@: the text quotes \"%2$@\", the run printed \"%3$@\"", place, quoted, printed)
            case (let quoted?, nil):
                return localized(format: "%1$@: the text quotes \"%2$@\", the run printed no such line", place, quoted)
            case (nil, let printed?):
                return localized(
                    format: "%1$@: the run printed \"%2$@\", which the text does not quote here", place, printed)
            case (nil, nil):
                return place
            }
        }
    }

    /// Where `block` differs from `output` (the run's lines, before its rules), line by line
    /// after the rules and the normaliser; empty when they agree.
    ///
    /// A Screen's frames agree when every event the text shows is one the run printed in that
    /// list of frames, all of them (`frames N` cuts only what is shown). Which events a run draws
    /// depends on the machine: on a busy one a state that lasts less than a frame is never drawn,
    /// and the last frames of a cut list are others. A renamed or removed event still differs.
    public static func differences(_ block: Block, output: [String], rules: [Rule], choices: Choices) -> [Difference] {
        let language = block.capture?.command.language ?? block.language
        let quoted = normalised(block.lines, language: language, choices: choices)
        var printed = normalised(selected(output, rules: rules), language: language, choices: choices)
        // The same lines with every frame kept: `frames N` only shortens each list of frames, so
        // the lists come in the same order.
        let uncut = normalised(
            selected(output, rules: rules.filter { if case .frames = $0 { false } else { true } }),
            language: language, choices: choices
        ).compactMap(\.events)
        var list = 0
        for index in printed.indices where printed[index].events != nil {
            if list < uncut.count { printed[index].events = uncut[list] }
            list += 1
        }
        func same(_ quoted: NormalLine, _ printed: NormalLine) -> Bool {
            if let shown = quoted.events, let drawn = printed.events { return shown.isSubset(of: drawn) }
            return quoted.text == printed.text
        }
        var differences: [Difference] = []
        // A longest common subsequence, then the lines outside it, each named by its text line.
        let (n, m) = (quoted.count, printed.count)
        var common = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] =
                    same(quoted[i], printed[j])
                    ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var (i, j) = (0, 0)
        func line(_ index: Int) -> Int {
            block.firstLine + (index < n ? quoted[index].index : block.lines.count)
        }
        while i < n || j < m {
            if i < n, j < m, same(quoted[i], printed[j]) {
                i += 1
                j += 1
            } else if i < n, j < m, common[i + 1][j + 1] == common[i][j] {
                // One line in place of another.
                differences.append(
                    Difference(path: block.path, line: line(i), quoted: quoted[i].text, printed: printed[j].text))
                i += 1
                j += 1
            } else if j < m, i == n || common[i][j + 1] >= common[i + 1][j] {
                differences.append(Difference(path: block.path, line: line(i), quoted: nil, printed: printed[j].text))
                j += 1
            } else {
                differences.append(Difference(path: block.path, line: line(i), quoted: quoted[i].text, printed: nil))
                i += 1
            }
        }
        return differences
    }

    // MARK: - Writing

    /// `text` (the file at `path`) with every capture block whose command is in `outputs`
    /// written from its output. Pass the outputs of the commands to write: a command's blocks are
    /// written together, everywhere, so that every block of one command (and every figure read
    /// from them, and its picture) comes from one run.
    public static func updated(_ text: String, path: String, outputs: [Command: [String]]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for block in blocks(in: text, path: path).reversed() {
            guard let (command, rules) = block.capture, let output = outputs[command] else { continue }
            let written = selected(output.map(withoutTerminalCodes), rules: rules).map {
                $0.isEmpty ? "" : block.indent + $0
            }
            lines.replaceSubrange(block.firstLine - 1..<block.firstLine - 1 + block.lines.count, with: written)
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Phrases picked by measurement

extension Captures {
    /// The phrases the programs pick by what they measured, so that two runs of the same command
    /// may print either: each group's phrases stand in the same place, and the normaliser writes
    /// the group's first for any of them. `added` are phrases a busy machine adds, left out.
    /// Written as the code's English keys; their Japanese is read from the package's
    /// `Resources/ja.lproj/Localizable.strings`, so that a changed translation changes them too.
    public struct Choices: Sendable {
        /// The English keys, each group a list of alternatives.
        public static let groups: [[String]] = [
            // MachineControl.bannerLine: how late the main loop was with nothing to do.
            [
                "quiet", "busy: freezes up to that size are the machine's, not the code's",
                "busy: other programs used %1$.1f of the %2$d cores",
            ],
            // VariantComparison.verdict: one variant against another.
            VariantComparison.verdictPhrases,
            // workshop check: whether the check program was compiled now.
            ["compiled in %.1f s", "built before, not compiled again"],
            // LessonProgram.cancelTakeaway: when a variant handled the tap.
            [
                "%1$@ handled the tap at once and stopped %2$@ s after it (after the cancel: %3$@)",
                "%1$@ handled the tap %2$@ s late (main was busy) and stopped %3$@ s after it (after the cancel: %4$@)",
            ],
        ]

        /// What a busy machine adds (MachineControl, LessonProgram).
        public static let added: [String] = [
            "This machine was busy: its main loop was already up to %.3f s late with no work at all, so a freeze of that size is the machine's, not the code's.",
            "(a busy machine: see the takeaway)",
        ]

        /// What a run adds in English whatever its language: how many more race reports the
        /// thread sanitizer wrote (TSanReport, in the sanitizer's words; one race is reported
        /// once or twice, run to run).
        public static let addedInEnglish: [String] = ["(and %@)"]

        /// Each language's phrases as regular expressions: the added ones (taken out), then each
        /// group's (its clause written as the group's first phrase).
        let patterns: [Language: [(pattern: String, replacement: String, clause: Bool)]]

        /// What the banner says of a busy machine, in each language (`MachineControl.bannerLine`):
        /// each busy phrase's words before its first figure.
        let busyWords: [Language: [String]]

        /// Whether a run's output says the machine was busy: its figures are the machine's as much
        /// as the code's, and the claims about them may not hold.
        public func saysBusy(_ lines: [String], language: Language) -> Bool {
            let words = busyWords[language] ?? []
            return lines.contains { line in words.contains { line.contains($0) } }
        }

        /// The groups in English and in the Japanese of `translations` (English key: Japanese).
        public init(translations: [String: String]) {
            var patterns: [Language: [(String, String, Bool)]] = [:]
            for language in Language.allCases {
                func text(_ key: String) -> String { language == .en ? key : translations[key] ?? key }
                var list: [(String, String, Bool)] = []
                for phrase in Self.added.map(text) + Self.addedInEnglish {
                    // With the space before it, or after it when it starts the line.
                    list.append((" ?" + Self.pattern(phrase), "", false))
                }
                for group in Self.groups {
                    let first = "⟨" + Captures.masked(Self.plain(text(group[0]))) + "⟩"
                    // One pass over the group, its longest phrase first, so that a phrase is never
                    // taken for a shorter one, nor the group's first (written in) for a phrase again.
                    let phrases = group.map(text).sorted { $0.count > $1.count }.map(Self.pattern)
                    list.append(("(?:" + phrases.joined(separator: "|") + ")", first, true))
                }
                patterns[language] = list
            }
            self.patterns = patterns
            let busy = Self.groups[0].dropFirst()
            func words(_ phrase: String) -> String {
                String(phrase[..<(phrase.firstIndex(of: "%") ?? phrase.endIndex)])
            }
            busyWords = [.en: busy.map(words), .ja: busy.map { words(translations[$0] ?? $0) }]
        }

        /// What ends a clause, in English and in Japanese (a number's point is masked by then), and
        /// the parentheses around one ("(quiet)"), so that the words beside it are still compared.
        static let clauseEnds: Set<Character> = [",", ".", ";", ":", "、", "。", "：", "；", "(", ")", "（", "）"]

        /// The Japanese of every program's texts in the package at `root`: every
        /// `Sources/*/Resources/ja.lproj/Localizable.strings`, merged.
        public static func translations(root: URL) -> [String: String] {
            let sources = root.appendingPathComponent("Sources")
            var merged: [String: String] = [:]
            for folder in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let file = sources.appendingPathComponent("\(folder)/Resources/ja.lproj/Localizable.strings")
                guard let data = FileManager.default.contents(atPath: file.path),
                    let table = try? PropertyListSerialization.propertyList(from: data, format: nil)
                        as? [String: String]
                else { continue }
                merged.merge(table) { first, _ in first }
            }
            return merged
        }

        public init(root: URL) { self.init(translations: Self.translations(root: root)) }

        /// A masked line with each chosen phrase as its group's first, each added one left out.
        ///
        /// A group's phrase stands for its whole clause (up to the punctuation on either side):
        /// the alternatives place their arguments differently ("%@と同じくらい速く" against
        /// "今回は%1$@より遅く"), so only the clause as a whole reads the same whichever was picked.
        func applied(to line: String, language: Language) -> String {
            var line = line
            for (pattern, replacement, clause) in patterns[language] ?? [] {
                guard clause else {
                    line = line.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
                    continue
                }
                var searchFrom = line.startIndex
                while let found = line.range(
                    of: pattern, options: .regularExpression, range: searchFrom..<line.endIndex),
                    !found.isEmpty
                {
                    var start = found.lowerBound
                    while start > line.startIndex, !Self.clauseEnds.contains(line[line.index(before: start)]) {
                        start = line.index(before: start)
                    }
                    var end = found.upperBound
                    while end < line.endIndex, !Self.clauseEnds.contains(line[end]) { end = line.index(after: end) }
                    let kept = line.distance(from: line.startIndex, to: start) + replacement.count
                    line.replaceSubrange(start..<end, with: replacement)
                    searchFrom = line.index(line.startIndex, offsetBy: kept)
                }
            }
            return line.trimmingCharacters(in: .whitespaces)
        }

        /// A format ("as fast as %1$@ but with a longer freeze (%2$@)") without its specifiers.
        static func plain(_ format: String) -> String {
            format.replacingOccurrences(of: specifier, with: "…", options: .regularExpression)
        }

        static let specifier = #"%([0-9]+\$)?(\.[0-9])?[@dfs]"#

        /// A format as a regular expression over a masked line: its text as written (numbers
        /// masked, spaces collapsed), each specifier any text up to a punctuation mark.
        static func pattern(_ format: String) -> String {
            let slot = "\u{1}"
            let marked = format.replacingOccurrences(of: specifier, with: slot, options: .regularExpression)
            var pattern = ""
            for character in Captures.masked(marked) {
                if String(character) == slot {
                    pattern += #"[^;,、。()（）]*?"#
                } else if "\\^$.|?*+()[]{}".contains(character) {
                    pattern += "\\" + String(character)
                } else {
                    pattern.append(character)
                }
            }
            // A specifier at the end takes all it can.
            // (Up to the sentence's end: a phrase that ends in a word is followed by its ".".)
            if pattern.hasSuffix(#"[^;,、。()（）]*?"#) { pattern = String(pattern.dropLast(3)) + #".]*"# }
            return pattern
        }
    }
}

// MARK: - Running

extension Captures {
    /// What one run printed: its standard output, then its standard error, as lines.
    public struct Run: Sendable {
        public var command: Command
        public var lines: [String]
        public var seconds: Double
        /// Why the run cannot be written or compared (it timed out, was killed, did not start); nil when it ended.
        public var problem: String?
    }

    /// Runs the commands of captures: the package's built programs (`lessonNN`, `fixture-server`,
    /// `workshop` in `binDirectory`), each with `--lang` and a time limit, stdin empty, no
    /// colour, no terminal; `workshop` in a throwaway copy of the exercises as shipped, so
    /// that neither the learner's files nor their progress change what it prints (or are changed).
    public struct Runner: Sendable {
        public var binDirectory: URL
        public var root: URL
        /// Added to (or, with nil, taken out of) this process's environment for every run.
        public var environment: [String: String?]

        public init(binDirectory: URL, root: URL, environment: [String: String?] = [:]) {
            self.binDirectory = binDirectory
            self.root = root
            self.environment = environment
        }

        /// Runs `command`; with `picture`, adds `--svg picture` and leaves out the line that says
        /// where the picture was written (the command the text shows has no `--svg`).
        public func run(_ command: Command, timeout: Double = Captures.defaultTimeout, picture: URL? = nil) -> Run {
            let started = Date()
            let program = binDirectory.appendingPathComponent(command.product).path
            guard FileManager.default.isExecutableFile(atPath: program) else {
                return Run(command: command, lines: [], seconds: 0, problem: "\(program) is not built")
            }
            var environment = ProcessInfo.processInfo.environment
            for name in ["LC_ALL", "LC_MESSAGES", "TERM", "COLUMNS"] { environment[name] = nil }
            environment["LANG"] = "C.UTF-8"
            environment["NO_COLOR"] = "1"
            for (name, value) in self.environment { environment[name] = value }
            var scratch: URL?
            defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
            if command.product == "workshop" {
                do { scratch = try shippedWorkshop() } catch {
                    return Run(command: command, lines: [], seconds: 0, problem: "\(error)")
                }
                environment["WORKSHOP_ROOT"] = scratch?.path
            }
            let outcome: Subprocess.Outcome
            do {
                outcome = try Subprocess.run(
                    program,
                    command.arguments + (picture.map { ["--svg", $0.path] } ?? []) + [
                        "--lang", command.language.rawValue,
                    ],
                    environment: environment,
                    currentDirectory: (scratch ?? root).path, timeout: timeout)
            } catch {
                return Run(command: command, lines: [], seconds: 0, problem: "could not start \(program): \(error)")
            }
            let seconds = Date().timeIntervalSince(started)
            if outcome.timedOut || outcome.signaled {
                return Run(
                    command: command, lines: [], seconds: seconds, problem: outcome.describeEnd(timeout: timeout))
            }
            var text = outcome.stdout
            if !outcome.stderr.isEmpty {
                if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
                text += outcome.stderr
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                Captures.withoutTerminalCodes(String($0))
            }
            if let picture { lines.removeAll { $0.contains(picture.path) } }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return Run(command: command, lines: lines, seconds: seconds, problem: nil)
        }

        /// A folder with the exercises as shipped (their texts, `.meta`, the learner's files as
        /// they shipped) and a Package.swift: a workshop of its own, removed after the run.
        func shippedWorkshop() throws -> URL {
            let files = FileManager.default
            let folder = files.temporaryDirectory.appendingPathComponent("sakusaku-capture-\(UUID().uuidString)")
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            try files.copyItem(
                at: root.appendingPathComponent("Exercises"), to: folder.appendingPathComponent("Exercises"))
            for exercise in ExerciseCatalog.load(root: root).exercises {
                for (file, data) in try ShippedFiles.sources(exercise, root: root) {
                    try data.write(to: folder.appendingPathComponent(exercise.directory + "/" + file))
                }
            }
            try Data("// swift-tools-version:6.0\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
            return folder
        }
    }

    /// The distinct commands of `blocks`' captures, in the order they first appear, each with
    /// the longest time limit any of its markers gives and the pictures they name.
    public static func commands(of blocks: [Block]) -> [(command: Command, timeout: Double, pictures: [String])] {
        var order: [Command] = []
        var timeouts: [Command: Double] = [:]
        var pictures: [Command: [String]] = [:]
        for block in blocks {
            guard case .success(let marker) = block.marker, let command = marker.command else { continue }
            if timeouts[command] == nil { order.append(command) }
            timeouts[command] = max(timeouts[command] ?? 0, marker.timeout)
            for picture in marker.pictures where !(pictures[command] ?? []).contains(picture) {
                pictures[command, default: []].append(picture)
            }
        }
        return order.map { ($0, timeouts[$0] ?? defaultTimeout, pictures[$0] ?? []) }
    }
}
