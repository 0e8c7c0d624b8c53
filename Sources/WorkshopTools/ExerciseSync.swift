import ExerciseChecks
import Foundation
import WorkshopCore

/// What is written from an exercise's checks as they declare themselves (`.meta/*.swift`,
/// asked with `--list-checks`): the checks' names in `.meta/exercise.json` (en, ja), and the
/// check table of README.md and README.ja.md (each check's name and what it wants, as
/// `workshop check` prints them in that language). `workshop sync` writes them; the tests
/// compare them, so a renamed check fails the suite until the texts say the new name.
public struct ExerciseSync: Sendable {
    public var runner: ExerciseRunner

    public init(runner: ExerciseRunner = ExerciseRunner()) { self.runner = runner }

    /// A file of the exercise and what it should hold now (nil: it holds it already).
    public struct Change: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// The README tables' headers, by language.
    public static let tableHeader: [Language: String] = [
        .en: "| check | wanted |", .ja: "| チェック | 求めるもの |",
    ]

    /// The files of `exercise` (under `root`) that differ from what its declared checks make
    /// them: empty when all agree. The checks are compiled with the reference.
    public func changes(_ exercise: Exercise, root: URL, solution: [String: Data]) -> Result<
        [Change], ExerciseRunner.BuildFailure
    > {
        switch runner.declaredChecks(exercise, sources: solution) {
        case .failure(let failure): return .failure(failure)
        case .success(let checks):
            var changes: [Change] = []
            let meta = exercise.metaDirectory + "/exercise.json"
            if let text = read(root, meta), let updated = Self.catalogEntry(text, checks: checks), updated != text {
                changes.append(Change(path: meta, text: updated))
            }
            for (language, file) in [(Language.en, "README.md"), (.ja, "README.ja.md")] {
                let path = exercise.directory + "/" + file
                guard let text = read(root, path) else { continue }
                let rows = table(exercise, checks, language)
                if let updated = Self.replacingTable(in: text, header: Self.tableHeader[language] ?? "", rows: rows),
                    updated != text
                {
                    changes.append(Change(path: path, text: updated))
                }
            }
            return .success(changes)
        }
    }

    func read(_ root: URL, _ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The table's rows in `language`: the compile check, then every declared check.
    func table(_ exercise: Exercise, _ checks: [Check], _ language: Language) -> [[String]] {
        var runner = self.runner
        runner.japanese = language == .ja
        let compile = [
            language == .ja ? ExerciseRunner.japanese(ExerciseRunner.compileCheck) : ExerciseRunner.compileCheck,
            runner.compileWanted(exercise),
        ]
        return [compile]
            + checks.map {
                language == .ja ? [$0.nameJapanese, $0.wantedJapanese] : [$0.name, $0.wanted]
            }
    }

    /// `text` (a README) with the table under `header` replaced by `rows`; nil when it has no such table.
    public static func replacingTable(in text: String, header: String, rows: [[String]]) -> String? {
        var lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return nil }
        var end = start + 2
        while end < lines.count, lines[end].hasPrefix("|") { end += 1 }
        let cells = rows.map { row in
            "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\\\|") }.joined(separator: " | ") + " |"
        }
        lines.replaceSubrange(start..<end, with: [header, "|---|---|"] + cells)
        return lines.joined(separator: "\n")
    }

    /// `.meta/exercise.json` with its `checks` as declared (the rest kept as written, byte for
    /// byte); nil when it has no `"checks": [...]` to replace.
    public static func catalogEntry(_ text: String, checks: [Check]) -> String? {
        guard let key = text.range(of: "\n  \"checks\": ["),
            let close = text.range(of: "\n  ]", range: key.upperBound..<text.endIndex)
        else { return nil }
        let entries = checks.map {
            "    {\n      \"en\": \(json($0.name)),\n      \"ja\": \(json($0.nameJapanese))\n    }"
        }
        return String(text[..<key.upperBound]) + "\n" + entries.joined(separator: ",\n")
            + String(text[close.lowerBound...])
    }

    /// `text` as a JSON string.
    static func json(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
