import Foundation

/// What `workshop new` writes, and how: the templates are files of the package (the template
/// lesson's targets, `Sources/WorkshopTools/Templates/`), read as they are and written under new
/// names with their placeholders replaced.
public enum TemplateFiles {
    /// Where the texts and the exercise `new` copies are (the build leaves the folder out).
    public static let folder = "Sources/WorkshopTools/Templates"

    /// `text` with each placeholder replaced by its value, in one pass from the start: where two
    /// placeholders start at the same place the longer wins, and a value is never read again
    /// as a placeholder (a title may say "Template").
    public static func filled(_ text: String, _ values: [(placeholder: String, value: String)]) -> String {
        let table = values.filter { !$0.placeholder.isEmpty }.sorted { $0.placeholder.count > $1.placeholder.count }
        var result = ""
        var rest = Substring(text)
        while let first = rest.first {
            if let match = table.first(where: { rest.hasPrefix($0.placeholder) }) {
                result += match.value
                rest = rest.dropFirst(match.placeholder.count)
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// Every file under `folder` of `root`, hidden ones too, as paths relative to `folder`, sorted.
    public static func list(_ folder: String, root: URL) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var files: [String] = []
        for case let path as String in walker {
            var directory: ObjCBool = false
            let full = base.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &directory), !directory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// The text of `path` under `root`, or a failure that names it.
    public static func text(_ path: String, root: URL) throws -> String {
        do { return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) } catch {
            throw Missing(
                description: "\(path) cannot be read (\(error.localizedDescription)): is this the workshop's package?")
        }
    }

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }
}

/// A file `workshop new` writes (relative to the package root), or adds to when `append` is
/// set: then `text` goes after the line that `after` names (at the end when none does).
public struct ScaffoldFile: Sendable, Equatable {
    public var path: String
    public var text: String
    public var append = false
    /// The heading of the section it goes in (nil: the end of the file).
    public var after: String?
    /// In that section, after the last line that starts with this (and the lines that go on
    /// from it, indented), else at the section's end.
    public var below: String?
    /// Right before the `after` heading instead (a new section before an existing one).
    public var before = false
    /// Before the file's last line that is exactly this (a chapter before a closing brace).
    public var beforeLast: String?

    public init(
        path: String, text: String, append: Bool = false, after: String? = nil, below: String? = nil,
        before: Bool = false, beforeLast: String? = nil
    ) {
        self.path = path
        self.text = text
        self.append = append
        self.after = after
        self.below = below
        self.before = before
        self.beforeLast = beforeLast
    }

    /// Writes `files` under `root`: new files whole, additions after their line.
    public static func write(_ files: [ScaffoldFile], root: URL) throws {
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard file.append else {
                try Data(file.text.utf8).write(to: url)
                continue
            }
            var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let last = file.beforeLast {
                var lines = text.components(separatedBy: "\n")
                let at = lines.lastIndex(of: last) ?? lines.count
                lines.insert(
                    contentsOf: file.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
                        String.init), at: at)
                try Data(lines.joined(separator: "\n").utf8).write(to: url)
                continue
            }
            text = inserting(file.text, into: text, after: file.after, below: file.below, before: file.before)
            try Data(text.utf8).write(to: url)
        }
    }

    /// `addition` inserted into `text`: in the section whose heading starts with `heading`,
    /// after its last line that starts with `below` (and that line's indented continuation),
    /// else at the section's end (before the next heading of any level); without a heading, at
    /// the end of `text`.
    static func inserting(
        _ addition: String, into text: String, after heading: String?, below: String? = nil, before: Bool = false
    ) -> String {
        var lines = text.components(separatedBy: "\n")
        guard let heading, let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else {
            return text.hasSuffix("\n") || text.isEmpty ? text + addition : text + "\n" + addition
        }
        if before {
            lines.insert(
                contentsOf: addition.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
                    String.init), at: start)
            return lines.joined(separator: "\n")
        }
        var end = start + 1
        while end < lines.count, !lines[end].hasPrefix("#") { end += 1 }
        if let below, let last = lines[start..<end].lastIndex(where: { $0.hasPrefix(below) }) {
            end = last + 1
            while end < lines.count, lines[end].hasPrefix("  ") { end += 1 }
        }
        // Before the blank lines that end the section.
        while end > start + 1, lines[end - 1].trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
        lines.insert(contentsOf: addition.split(separator: "\n").map(String.init), at: end)
        return lines.joined(separator: "\n")
    }
}
