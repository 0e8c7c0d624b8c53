import ExerciseChecks
import Foundation
import Testing
import WorkshopCore

@testable import WorkshopTools

/// `workshop present` without a terminal: its steps come from the lesson text (one per section,
/// with every command the section quotes and its own takeaway), a script can drive it line by
/// line, the lesson it runs speaks the presenter's language and leaves its own takeaway out for
/// the text's, a lesson whose sources changed is built first, and a wrong lesson or step is a
/// usage error.
struct PresentCommandTests {
    static let root = ExerciseRoot.builtFrom

    static func demos(_ file: String, product: String = "lesson03") throws -> [LessonDemo] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        return LessonText.demos(in: text, product: product)
    }

    /// The lesson texts, English and Japanese, with their program: ("Lessons/03-gcd-queues.md", "lesson03").
    static func lessonTexts() throws -> [(file: String, product: String)] {
        var texts: [(String, String)] = []
        for folder in ["Lessons", "Lessons/ja"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            for name in names.sorted() where name.range(of: #"^\d\d-.*\.md$"#, options: .regularExpression) != nil {
                texts.append((folder + "/" + name, "lesson" + name.prefix(2)))
            }
        }
        return texts
    }

    @Test func lesson03sDemosComeFromItsText() throws {
        let english = try Self.demos("Lessons/03-gcd-queues.md")
        let japanese = try Self.demos("Lessons/ja/03-gcd-queues.md")
        // The same commands; their comments ("# terminal 2", "# ターミナル 2") are in the text's language.
        #expect(english.map { $0.commands.map(\.text) } == japanese.map { $0.commands.map(\.text) })
        #expect(english.first?.runs.map(\.text) == ["swift run lesson03"])
        #expect(english.first?.point.hasPrefix("The network is just as slow with queues") == true)
        #expect(english.dropFirst().first?.title == "Second demo: a wider image queue")
        #expect(english.dropFirst().first?.point == "Four serial image queues, icon i on queue i mod 4.")
        #expect(japanese.first?.point.hasSuffix("。") == true)
        // Each step's takeaway is its section's own.
        #expect(english.first?.takeaway.hasPrefix("Queues move the waiting off the main thread") == true)
        #expect(english.dropFirst().first?.takeaway.hasPrefix("With four image queues the waiting overlaps") == true)
        #expect(japanese.dropFirst().first?.takeaway.hasPrefix("image キューを 4 本にすると") == true)
        // The fourth demo says to run two commands, and its step has both.
        let fourth = try #require(english.first { $0.needsOwnServer })
        #expect(
            fourth.commands.map(\.quoted) == [
                "swift run fixture-server --port 8080 --latency 0.3   # terminal 2",
                "swift run lesson03 --server http://127.0.0.1:8080 --rows 5",
            ])
        #expect(fourth.runs.map(\.text) == ["swift run lesson03 --server http://127.0.0.1:8080 --rows 5"])
    }

    /// A section that quotes two runs of the lesson is one step that runs both (lesson 01's
    /// third demo compares two widths).
    @Test func aSectionWithTwoRunsIsOneStepThatRunsBoth() throws {
        let demos = try Self.demos("Lessons/01-operation-queue.md", product: "lesson01")
        let width = try #require(demos.first { $0.title == "Third demo: the width" })
        #expect(width.runs.map { $0.arguments.suffix(2) } == [["--width", "1"], ["--width", "4"]])
        #expect(Set(demos.map(\.title)).count == demos.count, "one step per section")
    }

    /// A step's point is the section's own words, never the caption of the block after it: lesson
    /// 07's second demo once showed 「実測結果です(パート 1 の Width 固定)。」 (in English "Captured
    /// (part 1, Width pinning):"), the line that introduces its capture.
    @Test func aStepsPointIsNeverACaption() throws {
        let english = try Self.demos("Lessons/07-layout-math.md", product: "lesson07")
        let japanese = try Self.demos("Lessons/ja/07-layout-math.md", product: "lesson07")
        #expect(english.count == japanese.count && english.count >= 2)
        #expect(english[1].point.hasPrefix("Note how the Left+Right window at 24 columns"), "\(english[1].point)")
        #expect(japanese[1].point.hasPrefix("24 列の Left+Right のウィンドウで"), "\(japanese[1].point)")
        // In every text, a paragraph of one sentence right before a fenced block (markers such as
        // `<!-- capture: ... -->` between them) is that block's caption: no step shows one.
        for (file, product) in try Self.lessonTexts() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let captions = Self.captions(in: text)
            #expect(!captions.isEmpty, "\(file): no caption found: the test reads the text wrong")
            for (index, demo) in try Self.demos(file, product: product).enumerated() {
                #expect(
                    !captions.contains(demo.point), "\(file), step \(index + 1): the point is a caption: \(demo.point)")
                #expect(!demo.point.isEmpty, "\(file), step \(index + 1) (\(demo.title)) has no point")
            }
        }
    }

    /// The captions of `text`'s blocks, in plain text: each paragraph of one sentence that only
    /// blank lines and HTML comments separate from the fenced block after it.
    static func captions(in text: String) -> Set<String> {
        var captions: Set<String> = []
        var paragraph: [String] = []
        var last = ""
        var inCode = false
        for line in text.components(separatedBy: "\n") {
            if inCode {
                if line.hasPrefix("```") { inCode = false }
                continue
            }
            if line.hasPrefix("```") {
                inCode = true
                if !last.isEmpty { captions.insert(last) }
                last = ""
                paragraph = []
            } else if line.hasPrefix("<!--") || line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !paragraph.isEmpty { last = LessonText.plain(LessonText.paragraphs(paragraph[...]).first ?? "") }
                paragraph = []
            } else if line.hasPrefix("#") || line.hasPrefix("|") || line.hasPrefix("- ") {
                (last, paragraph) = ("", [])
            } else {
                paragraph.append(line)
                last = ""
            }
        }
        // One sentence: a full stop, 。 or colon only at its end.
        return captions.filter { caption in
            let body = caption.dropLast()
            return !body.contains("。") && !body.contains(". ") && (caption.hasSuffix(":") || caption.hasSuffix("。"))
        }
    }

    @Test func aCaptionBeforeABlockIsSkippedForTheNextParagraph() {
        let text = """
            # Lesson

            ## Demo

            ```
            swift run lesson09
            ```

            ### Second demo: wider

            ```
            swift run lesson09 --width 4
            ```

            Captured (part 1, the wide one):

            <!-- capture: swift run lesson09 --width 4 (en) -->
            ```
            output
            ```

            One sentence, then a block.
            ```
            more
            ```

            The point of the step. And more about it.

            **Takeaway:** Wider is faster.
            """
        let demos = LessonText.demos(in: text, product: "lesson09")
        #expect(demos.map(\.title) == ["Demo", "Second demo: wider"])
        #expect(demos.last?.point == "The point of the step.")
    }

    /// Every demo of every lesson, in English and Japanese, ends with a takeaway of its own: its
    /// section's, never empty, never another step's, never the program's line for a run of one
    /// variant ("Run all variants (the default) to compare them").
    @Test func everyStepOfEveryLessonHasItsOwnTakeaway() throws {
        let texts = try Self.lessonTexts()
        // A text in each language for every lesson program (Sources/lessonNN): a new lesson needs no edit here.
        let programs = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path
        )
        .filter { $0.range(of: #"^lesson\d\d$"#, options: .regularExpression) != nil }
        #expect(!programs.isEmpty && texts.count == 2 * programs.count, "\(texts.map(\.file)) for \(programs.sorted())")
        for (file, product) in texts {
            let demos = try Self.demos(file, product: product)
            #expect(!demos.isEmpty, "\(file) has no demo")
            for demo in demos {
                #expect(!demo.takeaway.isEmpty, "\(file): \"\(demo.title)\" has no **Takeaway:** (**まとめ:**) paragraph")
                #expect(!demo.takeaway.contains("Run all"), "\(file): \(demo.takeaway)")
                #expect(!demo.takeaway.contains("**"), "\(file): \(demo.takeaway)")
                if file.hasPrefix("Lessons/ja/") {
                    #expect(demo.takeaway.hasSuffix("。"), "\(file): \(demo.takeaway)")
                }
            }
            #expect(Set(demos.map(\.takeaway)).count == demos.count, "\(file): two steps share a takeaway")
        }
    }

    /// (The lesson is asked for as "3": one digit works as well as two.)
    @Test func listPrintsTheStepsInEitherLanguage() async throws {
        for (language, file) in [("en", "Lessons/03-gcd-queues.md"), ("ja", "Lessons/ja/03-gcd-queues.md")] {
            let list = try await WorkshopBinary.run(["present", "3", "--list", "--lang", language], root: Self.root)
            #expect(list.status == 0, "\(list.stderr)")
            for (index, demo) in try Self.demos(file).enumerated() {
                #expect(list.stdout.contains("\(index + 1). \(demo.title)"), "\(list.stdout)")
                // Every command of the step; the lesson's with the language it will speak.
                for command in demo.commands {
                    let shown =
                        command.product == "lesson03" ? command.text + " --lang " + language : command.quoted
                    #expect(list.stdout.contains("$ " + shown), "\(list.stdout)")
                }
                #expect(list.stdout.contains(demo.takeaway), "\(list.stdout)")
            }
        }
    }

    @Test func aWrongLessonOrStepIsAUsageError() async throws {
        let lesson = try await WorkshopBinary.run(["present", "09"], root: Self.root)
        #expect(lesson.status == 64)
        #expect(lesson.stderr.contains("there is no lesson \"09\". The lessons are 01, 02, 03"), "\(lesson.stderr)")
        let step = try await WorkshopBinary.run(["present", "3", "--step", "99"], root: Self.root)
        #expect(step.status == 64)
        #expect(step.stderr.contains("--step must be between 1 and"), "\(step.stderr)")
    }

    /// Lines on stdin: an empty line "runs" step 4 (skipped: it needs a room server), the next
    /// ends the presentation; the terminal-less output has the banner with both of the step's
    /// commands, the skip, and the step's takeaway once.
    @Test func aScriptDrivesItLineByLine() async throws {
        let run = try await Self.present(["3", "--step", "4"], input: "\n\nq\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("step 4 of 4"), "\(run.stdout)")
        #expect(
            run.stdout.contains("$ swift run fixture-server --port 8080 --latency 0.3   # terminal 2"), "\(run.stdout)")
        #expect(run.stdout.contains("$ swift run lesson03 --server http://127.0.0.1:8080 --rows 5"), "\(run.stdout)")
        #expect(run.stdout.contains("Skipped here: this demo needs a room server"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "┌─ Takeaway").count == 2, "\(run.stdout)")
        #expect(run.stdout.contains("That was the last demo of lesson 03."), "\(run.stdout)")
    }

    /// `workshop present arguments` with `input` on stdin (no terminal), at `root`, with `changes`
    /// to the environment.
    static func present(
        _ arguments: [String], input: String, root: URL = root, changes: [String: String] = [:]
    ) async throws -> Subprocess.Outcome {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(UUID().uuidString)")
        try Data(input.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        return try await Subprocess.run(
            "/bin/sh", ["-c", "exec \"$0\" present \"$@\" < \"$SCRIPT\"", WorkshopBinary.path] + arguments,
            environment: WorkshopBinary.environment(root: root).merging(changes.merging(["SCRIPT": script.path]) { $1 })
            { $1 },
            timeout: 120, in: .shared)
    }

    /// A package of its own for the presenter to find its lesson in (`WORKSHOP_BIN_DIR`): a
    /// stand-in lesson03 that prints how it was run, SwiftPM's list of what it linked, one
    /// source file, and a stand-in `swift` on PATH that logs how it was called and "builds"
    /// the lesson (touches it). Fast, and it never touches the real build folder, whose lock
    /// `swift test` holds meanwhile.
    struct StandIn {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("present-build-\(UUID().uuidString)")
        var package: URL { folder.appendingPathComponent("package") }
        var bin: URL { package.appendingPathComponent(".build/debug") }
        var lesson: URL { bin.appendingPathComponent("lesson03") }
        var source: URL { package.appendingPathComponent("Sources/lesson03/Lesson03.swift") }
        var log: URL { folder.appendingPathComponent("swift.log") }

        init() throws {
            let files = FileManager.default
            try files.createDirectory(
                at: bin.appendingPathComponent("lesson03.product"), withIntermediateDirectories: true)
            try files.createDirectory(at: folder.appendingPathComponent("tools"), withIntermediateDirectories: true)
            try files.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("// swift-tools-version:6.0\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
            try Data("// the lesson\n".utf8).write(to: source)
            try Data("\(bin.path)/lesson03.build/Lesson03.swift.o\n".utf8).write(
                to: bin.appendingPathComponent("lesson03.product/Objects.LinkFileList"))
            try Self.executable("#!/bin/sh\necho \"stand-in lesson03 ran with: $*\"\n", at: lesson)
            try Self.executable(
                "#!/bin/sh\necho \"$(pwd): swift $*\" >> \"\(log.path)\"\ntouch \"\(lesson.path)\"\n",
                at: folder.appendingPathComponent("tools/swift"))
        }

        static func executable(_ script: String, at file: URL) throws {
            try Data(script.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }

        /// Makes the lesson older than its source (and the manifest older still), as a `git pull`
        /// of a lesson's change leaves it.
        func makeStale() throws {
            for (file, age) in [(package.appendingPathComponent("Package.swift"), 7200.0), (lesson, 3600)] {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: file.path)
            }
        }

        var environment: [String: String] {
            [
                "WORKSHOP_BIN_DIR": bin.path,
                "PATH": folder.appendingPathComponent("tools").path + ":"
                    + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
        }

        var calls: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// After a `git pull` the lesson's binary is older than its sources: the presenter says so
    /// and builds it first (`swift build --product lesson03`, in the package), then runs the
    /// new one; the next time it is fresh and nothing is built. The run gets the text's takeaway
    /// in place of its own (`--no-takeaway`) and the presenter's `--lang`.
    @Test func aLessonWhoseSourcesChangedIsBuiltFirst() async throws {
        let standIn = try StandIn()
        defer { try? FileManager.default.removeItem(at: standIn.folder) }
        try standIn.makeStale()
        let first = try await Self.present(
            ["3", "--step", "2", "--lang", "ja"], input: "\nq\n", changes: standIn.environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(
            first.stderr.contains("lesson03 をビルドしたあとに Sources/lesson03/Lesson03.swift が変わりました。"), "\(first.stderr)")
        #expect(first.stderr.contains("swift build --product lesson03 -c debug"), "\(first.stderr)")
        #expect(standIn.calls == ["\(standIn.package.path): swift build --product lesson03 -c debug"])
        #expect(
            first.stdout.contains(
                "stand-in lesson03 ran with: --variant threaded --image-width 4 --no-takeaway --lang ja"),
            "\(first.stdout)")
        let japanese = try #require(try Self.demos("Lessons/ja/03-gcd-queues.md").dropFirst().first)
        #expect(first.stdout.contains("┌─ まとめ"), "\(first.stdout)")
        #expect(first.stdout.components(separatedBy: "┌─").count == 2, "one takeaway: \(first.stdout)")
        #expect(
            first.stdout.filter { !$0.isWhitespace && $0 != "│" }.contains(
                japanese.takeaway.filter { !$0.isWhitespace }), "\(first.stdout)")

        // Built now: the second time runs it at once.
        let second = try await Self.present(["3", "--step", "2"], input: "\nq\n", changes: standIn.environment)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(!second.stderr.contains("swift build"), "\(second.stderr)")
        #expect(standIn.calls.count == 1)
        #expect(
            second.stdout.contains("stand-in lesson03 ran with: --variant threaded --image-width 4 --no-takeaway\n"),
            "\(second.stdout)")
    }

    /// A build that fails stops the presenter before its first step, saying which lesson and why.
    @Test func aLessonThatCannotBeBuiltIsNamed() async throws {
        let standIn = try StandIn()
        defer { try? FileManager.default.removeItem(at: standIn.folder) }
        try StandIn.executable(
            "#!/bin/sh\necho 'error: cannot find type in scope'\nexit 1\n",
            at: standIn.folder.appendingPathComponent("tools/swift"))
        try standIn.makeStale()
        let run = try await Self.present(["3"], input: "q\n", changes: standIn.environment)
        #expect(run.status != 0)
        #expect(run.stderr.contains("lesson03 could not be built (exit status 1)"), "\(run.stderr)")
        #expect(run.stderr.contains("error: cannot find type in scope"), "\(run.stderr)")
        #expect(!run.stdout.contains("step 1 of"), "\(run.stdout)")
    }
}
