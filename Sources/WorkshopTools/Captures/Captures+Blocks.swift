import Foundation
import WorkshopCore

extension Captures {
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

    /// Every text under `root` (`textPaths`) with its contents; a text that cannot be read is left out.
    public static func texts(root: URL) -> [(path: String, text: String)] {
        textPaths(root: root).compactMap { path in
            (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
        }
    }

    /// Every fenced block of every text under `root`.
    public static func blocks(root: URL) -> [Block] {
        texts(root: root).flatMap { blocks(in: $0.text, path: $0.path) }
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
