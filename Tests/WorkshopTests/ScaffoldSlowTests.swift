import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `workshop new lesson` and `workshop new exercise`, as an instructor runs them, in a throwaway
/// copy of what they read and write (no package build: the template lesson they copy is built
/// and tested with the package, the contract suite included). The next lesson and its first
/// exercise are written; every file of the templates has its renamed copy, with no placeholder
/// left; Package.swift changes in its `lessons` line only; the new lesson's Swift type-checks
/// against the built modules; its texts agree across languages and keep the glossary, its
/// tutorials find every file they show; `sync` finds nothing to write and `verify` finds the
/// exercise failing as shipped and passing with its reference; and the files left with a TODO
/// are the ones `.github/CONTRIBUTING.md` says a person writes by hand.
@Suite struct ScaffoldSlowTests {
    static let source = ExerciseRoot.builtFrom

    /// The files the two commands read, as they are in the package, in a new folder (with the
    /// exercises as shipped).
    func makeWorkspace() throws -> TestWorkspace {
        let workspace = try TestWorkspace()
        let files = FileManager.default
        for path in ["Package.swift", "README.md"] + LessonScaffold.codeFolders + [TemplateFiles.folder] {
            let target = workspace.root.appendingPathComponent(path)
            try? files.removeItem(at: target)
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(at: Self.source.appendingPathComponent(path), to: target)
        }
        return workspace
    }

    @Test func aNewLessonAndItsFirstExerciseAreTheTemplatesRenamedAndHold() async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the test drives .build/debug/workshop")
        let workspace = try makeWorkspace()
        let root = workspace.root
        let package = workspace.text("Package.swift")
        let numbers = try #require(LessonScaffoldProbe.lessons(in: package), "Package.swift's lessons line")
        let number = String(format: "%02d", (numbers.compactMap { Int($0) }.max() ?? 0) + 1)
        let lesson = LessonScaffold(
            number: number, title: "rows off the main thread", titleJapanese: "メインスレッドの外で取る行")
        let exercise = ExerciseScaffold(
            id: number + "a", lesson: number, title: "the answer, worked out once", titleJapanese: "一度だけ求める答え",
            typeName: "RowCounter")
        let before = Self.contents(root)
        for arguments in [
            ["new", "lesson", number, "--title", lesson.title, "--title-ja", lesson.titleJapanese],
            [
                "new", "exercise", exercise.id, "--lesson", number, "--title", exercise.title, "--title-ja",
                exercise.titleJapanese, "--type", exercise.typeName,
            ],
        ] {
            let made = try await WorkshopBinary.run(arguments, root: root, timeout: 300)
            #expect(made.status == 0, "workshop \(arguments.joined(separator: " ")): \(made.stdout)\(made.stderr)")
        }

        let after = Self.contents(root)

        // Every file of the template lesson has its copy, renamed, and no placeholder is left.
        var written: [String] = []
        for folder in LessonScaffold.codeFolders {
            for path in TemplateFiles.list(folder, root: Self.source) {
                let copy = lesson.renamed(folder + "/" + path)
                #expect(copy != folder + "/" + path)
                #expect(FileManager.default.fileExists(atPath: workspace.path(copy)), "\(copy) was not written")
                written.append(copy)
            }
        }
        let texts = [
            "Lessons/" + lesson.textName, "Lessons/ja/" + lesson.textName, "Lessons/images/lesson\(number).svg",
            "Lessons/docc/en/lesson\(number).tutorial", "Lessons/docc/ja/lesson\(number).tutorial",
        ]
        let folder = "Exercises/" + exercise.folder
        let exerciseFiles = TemplateFiles.list(ExerciseScaffold.templateFolder, root: Self.source).map {
            folder + "/" + ($0.hasPrefix("meta/") ? "." : "")
                + $0.replacingOccurrences(of: "Solution", with: "RowCounter")
        }
        for path in written + texts + exerciseFiles + ["README.md", "Lessons/README.md", "Lessons/ja/README.md"] {
            let text = workspace.text(path)
            #expect(!text.isEmpty, "\(path) is empty or missing")
            for placeholder in [
                "Template", "the title of the lesson", "レッスンのタイトル", "NNx", "the title of the exercise", "演習のタイトル",
                "<!-- lesson link -->", "<!-- compiled as -->", "Solution",
            ] where text.contains(placeholder) {
                Issue.record("\(path) still says \(placeholder)")
            }
        }

        // Package.swift: the number in its lessons line, and nothing else changed.
        let listed = workspace.text("Package.swift")
        let changed = zip(package.split(separator: "\n"), listed.split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.count == 1, "\(changed)")
        #expect(LessonScaffoldProbe.lessons(in: listed) == numbers + [number])

        try await typeCheck(number: number, written: written, root: root)
        try checkTexts(lesson, exercise, root: root)

        // sync finds nothing to write; verify: the file as shipped fails, the reference passes.
        let sync = try await WorkshopBinary.run(["sync", "--check", exercise.id], root: root)
        #expect(sync.status == 0, "\(sync.stdout + sync.stderr)")
        let verify = try await WorkshopBinary.run(["verify", exercise.id], root: root)
        #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
        #expect(
            verify.stdout.contains("verify: exercise \(exercise.id) ships unsolved and its reference passes"),
            "\(verify.stdout)")

        try await authorsTheExercise(exercise, root: root)
        try checkTheCount(lesson, exercise, written: after.filter { before[$0.key] != $0.value })
    }

    /// An author replaces the stand-in (the learner's file, its reference, the checks) and runs
    /// `sync`: exercise.json's checks, `failsAsShipped` and `uses` are written from them, the
    /// READMEs' tables too, and `verify` holds. Nothing in exercise.json is written by hand.
    func authorsTheExercise(_ exercise: ExerciseScaffold, root: URL) async throws {
        let folder = root.appendingPathComponent("Exercises/" + exercise.folder)
        let shipped = """
            // Exercise \(exercise.id): \(exercise.title)
            // Check it: swift run workshop check \(exercise.id)
            public struct RowCounter {
                let rows: [Int]
                public init(rows: [Int]) { self.rows = rows }
                public func count(above limit: Int) -> Int {
                    0  // TODO(1): the rows above the limit
                }
                public func total() -> Int { rows.count }
            }

            """
        let checks = """
            import ExerciseChecks

            enum RowChecks {
                static let above = Check("counts the rows above", ja: "上の行を数える", wanted: "2", ja: "2", hint: 1)
                static let every = Check("counts every row", ja: "すべての行を数える", wanted: "4", ja: "4", hint: 1)
                static let all = [above, every]

                static func run() -> [CheckResult] {
                    let counter = RowCounter(rows: [1, 5, 7, 2])
                    let (count, total) = (counter.count(above: 4), counter.total())
                    return [
                        above.result(count == 2, got: localized("\\(count)", ja: "\\(count)")),
                        every.result(total == 4, got: localized("\\(total)", ja: "\\(total)")),
                    ]
                }
            }

            """
        let solution = shipped.replacingOccurrences(
            of: "0  // TODO(1): the rows above the limit", with: "rows.filter { $0 > limit }.count")
        for (path, text) in [
            ("RowCounter.swift", shipped), (".meta/solution/RowCounter.swift", solution),
            (".meta/checks.swift", checks),
            (".meta/driver.swift", "import ExerciseChecks\n\nExerciseDriver.run(RowChecks.all) { RowChecks.run() }\n"),
        ] {
            try Data(text.utf8).write(to: folder.appendingPathComponent(path))
        }
        let sync = try await WorkshopBinary.run(["sync", exercise.id], root: root)
        #expect(sync.status == 0, "\(sync.stdout + sync.stderr)")
        let entry = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(".meta/exercise.json")))
                as? [String: Any])
        #expect(entry["failsAsShipped"] as? [String] == ["counts the rows above"])
        #expect(
            (entry["uses"] as? [String: String])?["en"]
                == "RowCounter(rows:), RowCounter.count(above:) and RowCounter.total()")
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("| counts every row | 4 |"), "\(readme)")
        let again = try await WorkshopBinary.run(["sync", "--check", exercise.id], root: root)
        #expect(again.status == 0, "\(again.stdout + again.stderr)")
        let verify = try await WorkshopBinary.run(["verify", exercise.id], root: root)
        #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
    }

    /// Every file under `root`, by path, with its bytes.
    static func contents(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in TemplateFiles.list(".", root: root) {
            files[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
        }
        return files
    }

    /// The new lesson's kit built as a module from its files, then its program and its tests
    /// type-checked against it, all against the package's built modules (`Bundle.module`, which
    /// SwiftPM writes, stood in for).
    func typeCheck(number: String, written: [String], root: URL) async throws {
        let toolchain = Toolchain.current
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-typecheck-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let bundle = work.appendingPathComponent("Bundle.swift").path
        try Data("import Foundation\nextension Bundle { static var module: Bundle { .main } }\n".utf8)
            .write(to: URL(fileURLWithPath: bundle))
        let flags =
            ExerciseRunner.languageFlags + ["-parse-as-library", "-I", toolchain.binDirectory.path + "/Modules"]
            + toolchain.moduleMapDirectories.flatMap { ["-I", $0] } + ["-I", work.path]
        func swift(_ folder: String) -> [String] {
            written.filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(".swift") }.map { root.path + "/" + $0 }
        }
        for (module, mode, files) in [
            (
                "Lesson\(number)Kit",
                ["-emit-module", "-emit-module-path", work.path + "/Lesson\(number)Kit.swiftmodule"],
                swift("Sources/Lesson\(number)Kit") + [bundle]
            ),
            ("lesson\(number)", ["-typecheck"], swift("Sources/lesson\(number)") + [bundle]),
            ("Lesson\(number)Tests", ["-typecheck"], swift("Tests/Lesson\(number)Tests")),
        ] {
            #expect(!files.isEmpty, "\(module)")
            let outcome = try await Subprocess.run(
                "swiftc", flags + mode + ["-module-name", module] + files, currentDirectory: work.path, timeout: 300,
                in: .shared)
            #expect(outcome.succeeded, "\(module): \(outcome.stdout)\(outcome.stderr)")
            #expect(!outcome.stderr.contains("warning:"), "\(module): \(outcome.stderr)")
        }
    }

    /// The texts: the same headings and `swift run` lines in both languages, the glossary kept,
    /// the tutorials find every file they show, the titles and count written (`sync` would change
    /// nothing), the catalog loads the exercise.
    func checkTexts(_ lesson: LessonScaffold, _ exercise: ExerciseScaffold, root: URL) throws {
        func text(_ path: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        let english = try text("Lessons/" + lesson.textName)
        let japanese = try text("Lessons/ja/" + lesson.textName)
        #expect(LanguageSyncTests.headingLevels(english) == LanguageSyncTests.headingLevels(japanese))
        #expect(english.contains("swift run lesson\(lesson.number)\n"))
        #expect(japanese.contains("swift run lesson\(lesson.number)\n"))
        let rules = JapaneseTermTests.termTable(try JapaneseTexts.text(JapaneseTexts.glossary)).rules
        let programEnglish = try JapaneseQuotedOutputTests.programEnglish()
        let folder = "Exercises/" + exercise.folder
        for path in [
            "Lessons/ja/" + lesson.textName, "Lessons/docc/ja/lesson\(lesson.number).tutorial",
            folder + "/README.ja.md",
            folder + "/hints.ja.md",
        ] {
            #expect(JapaneseTermTests.findings(in: try text(path), path: path, rules: rules) == [])
            #expect(JapaneseQuotedOutputTests.findings(in: try text(path), path: path, english: programEnglish) == [])
        }
        for path in ["Sources/Lesson\(lesson.number)Kit", "Sources/lesson\(lesson.number)"] {
            let strings = try text(path + "/Resources/ja.lproj/Localizable.strings")
            #expect(JapaneseTermTests.findings(in: strings, path: path, rules: rules) == [])
        }
        let catalog = ExerciseCatalog.load(root: root)
        #expect(catalog.problems == [])
        #expect(catalog.exercises.first { $0.id == exercise.id } != nil)
        #expect(CatalogTexts.changes(catalog.exercises, root: root).map(\.path) == [])
        let assembled = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-docc-\(UUID())")
        defer { try? FileManager.default.removeItem(at: assembled) }
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: assembled.appendingPathComponent(language.rawValue))
            #expect(assembly.tutorials.contains("lesson\(lesson.number).tutorial"), "\(assembly.tutorials)")
            #expect(
                assembly.resources.contains("\(exercise.id)-shipped-\(exercise.typeName).swift"),
                "\(assembly.resources)")
        }
    }

    /// The files a person writes by hand are the ones the two commands write or change and leave
    /// with a TODO (an
    /// author's `TODO`, not a learner's `TODO(n)`; the copy as shipped, which `sync` writes from
    /// the learner's file, aside), and `.github/CONTRIBUTING.md` lists exactly those, ten at most.
    func checkTheCount(_ lesson: LessonScaffold, _ exercise: ExerciseScaffold, written: [String: Data]) throws {
        let todo = written.filter { path, data in
            !path.contains("/.meta/shipped/") && String(decoding: data, as: UTF8.self).contains(/TODO(?!\()/)
        }.keys
        let contributing = try String(
            contentsOf: Self.source.appendingPathComponent(".github/CONTRIBUTING.md"), encoding: .utf8)
        let listed = Self.handWritten(in: contributing)
        #expect(listed.count <= 10, "\(listed)")
        // "Lessons/08-....md", "Exercises/08a-.../<Type>.swift": the names CONTRIBUTING cannot know.
        let named = listed.map { path in
            path.replacingOccurrences(of: "08-....md", with: lesson.textName)
                .replacingOccurrences(of: "08a-...", with: exercise.folder)
                .replacingOccurrences(of: "<Type>", with: exercise.typeName)
                .replacingOccurrences(of: "08", with: lesson.number)
        }
        #expect(todo.sorted() == named.sorted(), "the files left with a TODO, and CONTRIBUTING's count")
    }

    /// The paths in the table under "### Files you then write by hand" (its rows: `| n | `path` | what |`).
    static func handWritten(in contributing: String) -> [String] {
        let section = contributing.components(separatedBy: "### Files you then write by hand").dropFirst().first ?? ""
        var paths: [String] = []
        for line in section.split(separator: "\n") {
            guard line.hasPrefix("| "), let first = line.split(separator: "`").dropFirst().first else {
                if line.hasPrefix("#") { break }
                continue
            }
            if line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) == true {
                paths.append(String(first))
            }
        }
        return paths
    }
}

/// Package.swift's `lessons` line, read the way `new lesson` reads it.
enum LessonScaffoldProbe {
    static func lessons(in package: String) -> [String]? {
        guard let line = package.split(separator: "\n").first(where: { $0.hasPrefix("let lessons = [") }) else {
            return nil
        }
        return line.matches(of: /"([0-9]{2})"/).map { String($0.output.1) }
    }
}
