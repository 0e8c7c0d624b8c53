import ExerciseChecks
import Foundation
import WorkshopCore

/// What is written from an exercise's checks as they declare themselves (`.meta/*.swift`,
/// asked with `--list-checks`): the checks' names in `.meta/exercise.json` (en, ja), and the
/// check table of README.md and README.ja.md (each check's name and what it wants, as
/// `workshop check` prints them in that language); and the entries of exercise.json written
/// from the exercise's files (`DerivedEntries`: the hint count, and `failsAsShipped` and `uses`
/// when they no longer hold). `workshop sync` writes them; the tests compare them, so a renamed
/// check fails the suite until the texts say the new name.
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
            var uses: (english: String, japanese: String)?
            if let text = read(root, meta), let entry = Self.catalogEntry(text, checks: checks) {
                let updated: String
                (updated, uses) = derived(entry, exercise, checks: checks, root: root)
                if updated != text { changes.append(Change(path: meta, text: updated)) }
            }
            for (language, file) in [(Language.en, "README.md"), (.ja, "README.ja.md")] {
                let path = exercise.directory + "/" + file
                guard let text = read(root, path) else { continue }
                let rows = table(exercise, checks, language, uses: language == .ja ? uses?.japanese : uses?.english)
                if let updated = Self.replacingTable(in: text, header: Self.tableHeader[language] ?? "", rows: rows),
                    updated != text
                {
                    changes.append(Change(path: path, text: updated))
                }
            }
            return .success(changes)
        }
    }

    /// `text` (exercise.json) with the entries written from the exercise's files (`DerivedEntries`),
    /// and the `uses` written there when it no longer held.
    func derived(_ text: String, _ exercise: Exercise, checks: [Check], root: URL) -> (
        String, uses: (english: String, japanese: String)?
    ) {
        var text = text
        if let hints = read(root, exercise.directory + "/hints.md"),
            let updated = DerivedEntries.withHints(text, count: HintsFile.hints(in: hints).count)
        {
            text = updated
        }
        let shipped = (try? ShippedFiles.sources(exercise, root: root)) ?? [:]
        let names = checks.map(\.name)
        if !Set(exercise.failsAsShipped).isSubset(of: names), !shipped.isEmpty {
            let failed = runner.check(exercise, sources: shipped).failed.map(\.name).filter(names.contains)
            if !failed.isEmpty, let updated = DerivedEntries.withFailsAsShipped(text, names: failed) { text = updated }
        }
        let files = exercise.files.compactMap { shipped[$0].map { String(decoding: $0, as: UTF8.self) } }
        if DerivedEntries.isStale(exercise.uses, declaring: files + DerivedEntries.foundations(exercise, root: root)) {
            let calls = ([exercise.driver] + exercise.checkSources.filter { $0.key != "given.swift" }.map(\.value))
                .joined(separator: "\n")
            if let english = DerivedEntries.uses(files: files, calls: calls, japanese: false),
                let japanese = DerivedEntries.uses(files: files, calls: calls, japanese: true),
                let updated = DerivedEntries.withUses(text, english: english, japanese: japanese)
            {
                return (updated, (english, japanese))
            }
        }
        return (text, nil)
    }

    func read(_ root: URL, _ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The table's rows in `language`: the compile check (what the driver `uses`, when
    /// exercise.json is being given a new one), then every declared check.
    func table(_ exercise: Exercise, _ checks: [Check], _ language: Language, uses: String? = nil) -> [[String]] {
        var runner = self.runner
        runner.japanese = language == .ja
        let compile = [
            language == .ja ? ExerciseRunner.japanese(ExerciseRunner.compileCheck) : ExerciseRunner.compileCheck,
            runner.compileWanted(exercise, uses: uses),
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
            "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
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

/// The exercises' titles and count wherever the texts say them, written from the catalog
/// (`.meta/exercise.json`'s `title`, one string per language): each README's first line, the
/// lesson text's and the tutorial's exercise heading, the syllabus's line for it, and the
/// syllabus's "all N exercises". Nothing is compiled: it reads and writes text only.
public enum CatalogTexts {
    /// Where a title stands, in each language: the text before it and what ends it.
    struct Spot {
        var language: Language
        var before: String
        var after: String
    }

    static func spots(_ exercise: Exercise) -> [(path: String, spot: Spot)] {
        let id = exercise.id
        var spots: [(String, Spot)] = [
            (exercise.directory + "/README.md", Spot(language: .en, before: "# Exercise \(id): ", after: "\n")),
            (exercise.directory + "/README.ja.md", Spot(language: .ja, before: "# 演習 \(id): ", after: "\n")),
            ("Lessons/README.md", Spot(language: .en, before: "- Exercise \(id), *", after: "*")),
            ("Lessons/ja/README.md", Spot(language: .ja, before: "- 演習 \(id)、*", after: "*")),
        ]
        if let lesson = exercise.lesson {
            spots += [
                (
                    "Lessons/docc/en/lesson\(lesson).tutorial",
                    Spot(language: .en, before: "\"Exercise \(id): ", after: "\"")
                ),
                ("Lessons/docc/ja/lesson\(lesson).tutorial", Spot(language: .ja, before: "\"演習 \(id): ", after: "\"")),
            ]
        }
        return spots
    }

    /// The lesson text of `lesson` in `folder` ("Lessons" or "Lessons/ja"), by its number.
    static func lessonText(_ lesson: String, in folder: String, root: URL) -> String? {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.sorted().first { $0.hasPrefix(lesson + "-") && $0.hasSuffix(".md") }.map { folder + "/" + $0 }
    }

    /// Every file under `root` whose titles or count differ from the catalog's, as it should read.
    public static func changes(_ exercises: [Exercise], root: URL) -> [ExerciseSync.Change] {
        var texts: [String: String] = [:]
        func text(_ path: String) -> String? {
            if let text = texts[path] { return text }
            let read = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            texts[path] = read
            return read
        }
        var original: [String: String] = [:]
        for exercise in exercises {
            var spots = spots(exercise)
            if let lesson = exercise.lesson {
                if let path = lessonText(lesson, in: "Lessons", root: root) {
                    spots.append((path, Spot(language: .en, before: "## Exercise \(exercise.id): ", after: "\n")))
                }
                if let path = lessonText(lesson, in: "Lessons/ja", root: root) {
                    spots.append((path, Spot(language: .ja, before: "## 演習 \(exercise.id): ", after: "\n")))
                }
            }
            for (path, spot) in spots {
                guard let current = text(path) else { continue }
                if original[path] == nil { original[path] = current }
                let title = spot.language == .ja ? exercise.titleJapanese : exercise.title
                texts[path] = replacing(in: current, after: spot.before, upTo: spot.after, with: title)
            }
        }
        // "all 18 exercises", "18 件の演習": the catalog's count.
        for (path, pattern) in [
            ("Lessons/README.md", #"all \d+ exercises"#), ("Lessons/ja/README.md", #"\d+ 件の演習"#),
        ] {
            guard let current = text(path) else { continue }
            if original[path] == nil { original[path] = current }
            let count = String(exercises.count)
            texts[path] = current.replacingOccurrences(
                of: pattern, with: pattern.hasPrefix("all") ? "all \(count) exercises" : "\(count) 件の演習",
                options: .regularExpression)
        }
        return original.keys.sorted().compactMap { path in
            guard let now = texts[path], now != original[path] else { return nil }
            return ExerciseSync.Change(path: path, text: now)
        }
    }

    /// `text` with what stands between each `before` and the next `after` replaced by `title`.
    static func replacing(in text: String, after before: String, upTo end: String, with title: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: before) {
            result += rest[..<start.upperBound]
            rest = rest[start.upperBound...]
            guard let stop = rest.range(of: end) else { break }
            result += title
            rest = rest[stop.lowerBound...]
        }
        return result + rest
    }

    /// The first line where two texts differ (1-based), for a message that names it.
    public static func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] { return index + 1 }
        return min(left.count, right.count) + 1
    }
}
