import Foundation
import WorkshopCore

extension Captures {
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
}
