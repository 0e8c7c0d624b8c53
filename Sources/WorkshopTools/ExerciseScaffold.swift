import Foundation
import WorkshopCore

/// What `workshop new exercise` writes: a new exercise's whole folder, working as written (its
/// file as shipped fails its one check, its reference passes it, `verify` says so), with TODOs
/// that say what to write instead. Also its lesson text's section and the syllabus's line, when
/// the lesson has them. Everything else (`list`, `check`, the tests, the board) finds the folder.
public struct ExerciseScaffold: Sendable {
    /// "NNa" (a lesson's number and a letter), "RN".
    public var id: String
    /// "NN", or nil for an exercise of no lesson.
    public var lesson: String?
    public var title: String
    public var titleJapanese: String
    /// The type the learner's file declares, and the file's name (`<type>.swift`).
    public var typeName: String

    public init(id: String, lesson: String?, title: String, titleJapanese: String, typeName: String) {
        self.id = id
        self.lesson = lesson
        self.title = title
        self.titleJapanese = titleJapanese
        self.typeName = typeName
    }

    /// A file to write (relative to the package root), or to add to when `append` is set: then
    /// `text` goes after the line that `after` names (at the end when none does).
    public struct File: Sendable, Equatable {
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
    }

    /// "NNa-row-heights": the id and the title's words, lowercased, for the folder's name.
    public var folder: String { id + "-" + Self.slug(title) }

    static func slug(_ title: String) -> String {
        let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }.prefix(4)
        let ascii = words.map { String($0.unicodeScalars.filter(\.isASCII)) }.filter { !$0.isEmpty }
        return ascii.isEmpty ? "exercise" : ascii.joined(separator: "-")
    }

    var fileName: String { typeName + ".swift" }
    var checksName: String { "Exercise\(id)Checks" }
    var directory: String { "Exercises/" + folder }

    /// Why these arguments make no exercise (nil: they do).
    public func problem(existing: [Exercise], root: URL) -> String? {
        if id.range(of: #"^([0-9]{2}[a-z]?|R[0-9]+)$"#, options: .regularExpression) == nil {
            return "an exercise's id is a lesson's number with an optional letter (NN, NNa) or R and a number (RN)"
        }
        if let lesson, !id.hasPrefix(lesson) {
            return "exercise \(id) of lesson \(lesson): its id starts with the lesson's number"
        }
        if lesson == nil, !id.hasPrefix("R") { return "an exercise of no lesson has an id that starts with R" }
        if existing.contains(where: { $0.id.lowercased() == id.lowercased() }) {
            return "there is an exercise \(id) already"
        }
        if typeName.range(of: #"^[A-Z][A-Za-z0-9]*$"#, options: .regularExpression) == nil {
            return "--type is a Swift type's name that starts with a capital letter (got '\(typeName)')"
        }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(directory).path) {
            return "\(directory) is there already"
        }
        return nil
    }

    /// Every file, as it should be written.
    public func files(root: URL) -> [File] {
        let shipped = learnerFile(solved: false)
        var files = [
            File(path: directory + "/" + fileName, text: shipped),
            // The copy as shipped, which `reset` restores (`workshop sync` writes it again after an edit).
            File(path: directory + "/.meta/shipped/" + fileName, text: shipped),
            File(path: directory + "/.meta/solution/" + fileName, text: learnerFile(solved: true)),
            File(path: directory + "/.meta/checks.swift", text: checks),
            File(path: directory + "/.meta/driver.swift", text: driver),
            File(path: directory + "/.meta/exercise.json", text: catalogEntry),
            File(path: directory + "/.meta/cases.json", text: cases),
            File(path: directory + "/README.md", text: readme(japanese: false, root: root)),
            File(path: directory + "/README.ja.md", text: readme(japanese: true, root: root)),
            File(path: directory + "/hints.md", text: hints(japanese: false)),
            File(path: directory + "/hints.ja.md", text: hints(japanese: true)),
            File(path: directory + "/compile_flags.txt", text: Self.compileFlags),
        ]
        if let lesson {
            for (folder, japanese) in [("Lessons", false), ("Lessons/ja", true)] {
                if let text = CatalogTexts.lessonText(lesson, in: folder, root: root) {
                    files.append(File(path: text, text: lessonSection(japanese: japanese), append: true))
                }
            }
            files.append(
                File(
                    path: "Lessons/README.md",
                    text: "- Exercise \(id), *\(title)*: `swift run workshop check \(id)`.\n",
                    append: true, after: "### Lesson \(lesson):", below: "- Exercise "))
            files.append(
                File(
                    path: "Lessons/ja/README.md",
                    text: "- 演習 \(id)、*\(titleJapanese)*: `swift run workshop check \(id)`。\n",
                    append: true, after: "### レッスン \(lesson):", below: "- 演習 "))
        }
        return files
    }

    /// The compiler flags sourcekit-lsp uses for the folder's files (the editor sees the kit).
    public static let compileFlags =
        (ExerciseRunner.languageFlags + [
            "-module-name", "Exercises", "-I", "../../.build/debug/Modules", "-I", "../../Sources/CSQLite", "-I",
            "../../Sources/CZlib",
        ]).joined(separator: "\n") + "\n"

    func learnerFile(solved: Bool) -> String {
        """
        // Exercise \(id): \(title)
        // Check it: swift run workshop check \(id)
        import Foundation

        /// TODO: what this type does for the lesson's app, and what is wrong with it as shipped.
        /// As written by `workshop new exercise`, the one check wants `answer()` to return 42.
        public enum \(typeName) {
            public static func answer() -> Int {
                \(solved ? "42" : "0  // TODO(1): return the answer")
            }
        }

        """
    }

    var checks: String {
        """
        import ExerciseChecks
        import Foundation

        /// The checks of exercise \(id) (\(directory)), each declared once in both languages, in
        /// the order they report. TODO: the exercise's own checks. Decide on evidence that load
        /// cannot fake (where the work ran, what was in flight together), not on a stopwatch.
        enum \(checksName) {
            static let answers = Check(
                "gives the answer", ja: "答えを返す", wanted: "answer() returns 42", ja: "answer() が 42 を返す", hint: 1)
            static let all = [answers]

            static func run() -> [CheckResult] {
                let got = \(typeName).answer()
                return [
                    answers.result(
                        got == 42, got: localized("answer() returned \\(got)", ja: "answer() は \\(got) を返しました"))
                ]
            }
        }

        """
    }

    var driver: String {
        """
        import ExerciseChecks

        // The check program: with --list-checks it prints the checks as declared, else it runs them.
        ExerciseDriver.run(\(checksName).all) { \(checksName).run() }

        """
    }

    var catalogEntry: String {
        let lessonLine = lesson.map { "  \"lesson\": \(ExerciseSync.json($0)),\n" } ?? ""
        return """
            {
              "id": \(ExerciseSync.json(id)),
            \(lessonLine)  "title": {
                "en": \(ExerciseSync.json(title)),
                "ja": \(ExerciseSync.json(titleJapanese))
              },
              "files": [
                \(ExerciseSync.json(fileName))
              ],
              "hints": 1,
              "checks": [
                {
                  "en": "gives the answer",
                  "ja": "答えを返す"
                }
              ],
              "failsAsShipped": [
                "gives the answer"
              ],
              "uses": {
                "en": "\(typeName).answer()",
                "ja": "\(typeName).answer()"
              }
            }

            """
    }

    var cases: String {
        """
        {
          "cases": [
            {
              "about": "a fix half done: the answer off by one (TODO: the exercise's own mistakes, each with the check it fails)",
              "from": "solution",
              "replace": [["42", "41"]],
              "fails": ["gives the answer"]
            }
          ]
        }

        """
    }

    /// "Lesson: [08](../../Lessons/08-topic.md)." and a blank line; nothing for no lesson.
    func lessonLink(japanese: Bool, root: URL) -> String {
        guard let lesson else { return "" }
        let folder = japanese ? "Lessons/ja" : "Lessons"
        let path = CatalogTexts.lessonText(lesson, in: folder, root: root) ?? folder + "/README.md"
        return japanese ? "レッスン: [\(lesson)](../../\(path))。\n\n" : "Lesson: [\(lesson)](../../\(path)).\n\n"
    }

    func readme(japanese: Bool, root: URL) -> String {
        if japanese {
            return """
                # 演習 \(id): \(titleJapanese)

                \(lessonLink(japanese: true, root: root))TODO: 配布時のファイルが何をしているか、何を変えるのか(ファイルの TODO(1) の場所)、
                それがレッスンのどの考え方につながるかを書きます。

                ## チェックする

                ```
                swift run workshop check \(id)
                ```

                \(Self.compiledAs(japanese: true))
                | チェック | 求めるもの |
                |---|---|

                詰まったら `swift run workshop hint \(id)` を実行してください。実行するたびにヒントが 1 つずつ増えます。

                """
        }
        return """
            # Exercise \(id): \(title)

            \(lessonLink(japanese: false, root: root))TODO: what the file as shipped does, what to change (the file's TODO(1)), and which
            idea of the lesson it is about.

            ## Check it

            ```
            swift run workshop check \(id)
            ```

            \(Self.compiledAs(japanese: false))
            | check | wanted |
            |---|---|

            Stuck? `swift run workshop hint \(id)` shows one more hint each time you ask.

            """
    }

    /// What every exercise's README says under "Check it": how `check` compiles the learner's
    /// file (`ExerciseRunner.languageFlags`). A paragraph, ending with a blank line.
    public static func compiledAs(japanese: Bool) -> String {
        japanese
            ? """
            `check` は、パッケージと同じ設定であなたのファイルをコンパイルします。Swift 6 言語モードに、2 つの upcoming feature、
            `NonisolatedNonsendingByDefault` と `InferIsolatedConformances` を加えた設定です(エディタもこのフォルダの
            `compile_flags.txt` から同じ設定を読みます)。Swift 6.2 と 6.3 では、指定しない限りどちらも無効です。Xcode 26 の
            ビルド設定「Approachable Concurrency」は、新しく作ったアプリのプロジェクトでこの 2 つを有効にします(そうした
            プロジェクトは既定のアクター分離も `MainActor` にすることが多いのですが、このパッケージはそうしていません)。
            この設定では `nonisolated` の async 関数は呼び出し元のアクターで動き、そういう関数をアクターの外へ出すのが
            `@concurrent` です。子タスクと `Task.detached` は、これまでどおり呼び出し元のアクターの外で動きます。

            """
            : """
            `check` compiles your file the way the package is built: Swift 6 language mode with two upcoming
            features, `NonisolatedNonsendingByDefault` and `InferIsolatedConformances` (the editor reads the
            same from this folder's `compile_flags.txt`). Swift 6.2 and 6.3 leave them off unless asked;
            Xcode 26's "Approachable Concurrency" setting turns them on in the app projects it creates (such
            a project usually also makes `MainActor` the default isolation; this package does not). With
            them, a `nonisolated` async function runs on its caller's actor, and `@concurrent` is how such a
            function leaves it; child tasks and `Task.detached` still run off the caller's actor.

            """
    }

    func hints(japanese: Bool) -> String {
        japanese
            ? "# 演習 \(id) のヒント\n\n1. TODO: 最初のヒントを書きます。まずは `\(fileName)` の TODO(1) のところを見て、何が足りないかを考えてみてください。\n"
            : "# Hints for exercise \(id)\n\n1. TODO: the first hint. Look at TODO(1) in `\(fileName)`.\n"
    }

    func lessonSection(japanese: Bool) -> String {
        japanese
            ? "\n## 演習 \(id): \(titleJapanese)\n\nTODO: 会場でこの演習をどう進めるか。`swift run workshop check \(id)`。\n"
            : "\n## Exercise \(id): \(title)\n\nTODO: how the room works on this exercise. `swift run workshop check \(id)`.\n"
    }

    /// Writes `files` under `root`: new files whole, additions after their line.
    public static func write(_ files: [File], root: URL) throws {
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
