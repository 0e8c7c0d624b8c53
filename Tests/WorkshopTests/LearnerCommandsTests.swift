import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The learner's commands beyond check and hint, on the built binary and a throwaway
/// workspace of the files as shipped: solution (only once passed), --edit, reset --all, next,
/// list --json, and the verdict line that ends every check.
///
/// What LearnerCommandsTests and LearnerCommandsSlowTests (the slow tier) share.
protocol LearnerCommandsSuite: WorkspaceSuite {}

extension LearnerCommandsSuite {
    func lastLine(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The line of the first TODO in the file as shipped, counted from 1.
    func firstTodoLine(_ exercise: Exercise) -> Int {
        let lines = workspace.text(exercise.paths[0]).split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains("TODO") } ?? -1) + 1
    }

    /// A fake editor that writes its arguments to a file.
    func fakeEditor() throws -> (command: String, log: String) {
        let log = workspace.path("editor.log")
        let script = workspace.path("fake-editor.sh")
        try workspace.write("fake-editor.sh", Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(log)'\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (script, log)
    }
}

@Suite struct LearnerCommandsTests: LearnerCommandsSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func solutionStaysHiddenUntilTheExercisePassesThenShowsTheReferenceAndTheDiff() async throws {
        let exercise = Subject.pure
        let id = exercise.id
        let reference = workspace.text(exercise.solutionDirectory + "/" + exercise.files[0])
        // A line only the reference has: the answer must not leak before the exercise passes.
        let shipped = Set(workspace.text(exercise.paths[0]).split(separator: "\n"))
        let secret = try #require(
            reference.split(separator: "\n").first { !shipped.contains($0) && $0.count > 20 }.map(String.init))

        let hidden = try await run(["solution", id])
        #expect(hidden.status == 1, "not what was asked for: scripts see 1. \(hidden.stderr)")
        let counts = "(\(exercise.failsAsShipped.count) of \(exercise.checks.count + 1) fail)"
        #expect(hidden.stdout.contains("does not pass its checks yet \(counts)"), "\(hidden.stdout)")
        #expect(hidden.stdout.contains("swift run workshop hint \(id)"), "\(hidden.stdout)")
        #expect(!hidden.stdout.contains(secret), "no spoiler before passing: \(hidden.stdout)")

        // Solved another way than byte for byte: a comment of the learner's more.
        try workspace.write(exercise.paths[0], Data(("// my own note\n" + reference).utf8))
        let shown = try await run(["solution", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("the reference solution"), "\(shown.stdout)")
        #expect(shown.stdout.contains(secret), "\(shown.stdout)")
        #expect(shown.stdout.contains("--- \(exercise.paths[0])"), "\(shown.stdout)")
        #expect(shown.stdout.contains("\n-// my own note"), "the diff against the learner's file: \(shown.stdout)")
        #expect(try await run(["list"]).stdout.contains("done"), "the check it ran was recorded")

        try workspace.solve(exercise)
        let same = try await run(["solution", id])
        #expect(same.stdout.contains("Your file is the reference, byte for byte."), "\(same.stdout)")
    }

    @Test func checkEndsWithOneVerdictLine() async throws {
        let pure = Subject.pure
        let failing = try await run(["check", pure.id])
        #expect(failing.status == 1)
        #expect(
            lastLine(failing.stdout)
                == "exercise \(pure.id): \(pure.failsAsShipped.count) of \(pure.checks.count + 1) checks fail")
        try workspace.solve(pure)
        let passing = try await run(["check", pure.id])
        #expect(passing.status == 0)
        #expect(lastLine(passing.stdout) == "exercise \(pure.id) passed")
    }

    /// A file that does not compile still counts against the exercise's whole list of checks:
    /// the compile check failed, the others did not run.
    @Test func aCompileErrorCountsTheExercisesTotal() async throws {
        let pure = Subject.pure
        try workspace.write(pure.paths[0], Data((workspace.text(pure.paths[0]) + "\n}\n").utf8))
        let check = try await run(["check", pure.id])
        #expect(check.status == 1)
        #expect(
            lastLine(check.stdout)
                == "exercise \(pure.id): 1 of \(pure.checks.count + 1) checks fails, \(pure.checks.count) not run")
    }

    /// Inside an exercise's folder, the commands that take an exercise mean that one, not the
    /// current one; and its folder's name works wherever an id does.
    @Test func insideAnExercisesFolderTheCommandsMeanThatExercise() async throws {
        let exercises = Subject.all
        let current = exercises[0]
        let here = try #require(exercises.last { $0.id != current.id && $0.files.count == 1 })
        _ = try await run(["start", current.id])
        let folder = here.directory
        let check = try await WorkshopBinary.run(["check"], root: workspace.root, in: folder)
        #expect(lastLine(check.stdout).hasPrefix("exercise \(here.id)"), "\(check.stdout)")
        let hint = try await WorkshopBinary.run(["hint"], root: workspace.root, in: folder)
        #expect(hint.stdout.contains(here.id), "\(hint.stdout)")
        let solution = try await WorkshopBinary.run(["solution"], root: workspace.root, in: folder)
        #expect((solution.stdout + solution.stderr).contains(here.id), "\(solution.stdout + solution.stderr)")
        try workspace.write(here.paths[0], Data("// changed\n".utf8))
        let reset = try await WorkshopBinary.run(["reset", "--yes"], root: workspace.root, in: folder)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(workspace.text(here.paths[0]) != "// changed\n", "reset without an id reset the folder's file")
        // The folder's name is an id too, from anywhere.
        let byFolder = try await run(["check", here.folder])
        #expect(lastLine(byFolder.stdout).hasPrefix("exercise \(here.id)"), "\(byFolder.stdout)")
        let byPath = try await run(["hint", here.directory + "/"])
        #expect(byPath.status == 0, "\(byPath.stderr)")
    }

    /// `list` fits the terminal: nothing cut when it is wide, no line wider than it when narrow.
    @Test func listFitsTheTerminalsWidth() async throws {
        let wide = try await run(["list"], ["COLUMNS": "200"])
        #expect(!wide.stdout.contains("…"), "\(wide.stdout)")
        for title in Subject.all.map(\.title) { #expect(wide.stdout.contains(title), "\(title)") }
        let narrow = try await run(["list"], ["COLUMNS": "72"])
        for line in narrow.stdout.split(separator: "\n") where line.hasPrefix("  ") || line.hasPrefix("> ") {
            #expect(terminalWidth(String(line)) <= 72, "\(String(line))")
        }
    }

    @Test func editOpensTheCurrentFileAtItsFirstTodo() async throws {
        let editor = try fakeEditor()
        let iconLoader = Subject.ordinary[0]
        let location = "\(iconLoader.paths[0]):\(firstTodoLine(iconLoader))"
        #expect(firstTodoLine(iconLoader) > 1)

        // $EDITOR gets the path.
        let start = try await run(["start", iconLoader.id, "--edit"], ["EDITOR": editor.command])
        #expect(start.status == 0, "\(start.stderr)")
        #expect(workspace.text("editor.log") == iconLoader.paths[0] + "\n")
        #expect(start.stdout.contains(location), "path:line wherever a file is named: \(start.stdout)")

        // --edit-cmd gets path:line; `workshop` with no command opens the current exercise.
        let list = try await run(["--edit-cmd", editor.command + " -g"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(workspace.text("editor.log") == "-g\n\(location)\n")
        #expect(list.stdout.contains(location), "\(list.stdout)")

        // `next --edit` opens what `list` calls next: the same exercise, until it passes.
        let next = try await run(["next", "--edit"], ["EDITOR": editor.command])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(workspace.text("editor.log") == iconLoader.paths[0] + "\n")

        // No editor, or one that does not run: a clear error, exit 1.
        let none = try await run(["start", iconLoader.id, "--edit"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("set EDITOR") && none.stderr.contains("--edit-cmd"), "\(none.stderr)")
        let missing = try await run(["--edit-cmd", "no-such-editor-anywhere"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such-editor-anywhere` did not run"), "\(missing.stderr)")
    }

    /// On a terminal (faked with util-linux `script`), `reset --all` asks once, in the
    /// learner's language; no answer (end of input) changes nothing.
    @Test func resetAllAsksOnATerminalAndNoAnswerChangesNothing() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no util-linux script")
        let file = Subject.pure.paths[0]
        let mine = Data("// mine\n".utf8) + workspace.contents(file)!
        try workspace.write(file, mine)
        for (language, question) in [
            ("C.UTF-8", "Reset \(file) to the shipped version? Your version is kept as a backup. [y/N] "),
            ("ja_JP.UTF-8", "\(file) を配布時の状態に戻しますか？ 今のファイルはバックアップに残します。 [y/N] "),
        ] {
            let command =
                "env -u LC_ALL -u LC_MESSAGES LANG=\(language) NO_COLOR=1 WORKSHOP_ROOT='\(workspace.root.path)' "
                + "'\(WorkshopBinary.path)' reset --all"
            let asked = try await Subprocess.run(
                "/usr/bin/script", ["-qec", command, "/dev/null"], timeout: 60, in: .shared)
            #expect(asked.stdout.components(separatedBy: question).count == 2, "asked once: \(asked.stdout)")
            #expect(workspace.contents(file) == mine, "no answer, no change")
        }
    }

    @Test func nextSkipsWhatPassedAndMakesItCurrent() async throws {
        // Two exercises in a row pass, the second first; the first is current then.
        let all = Subject.all
        let index = all.firstIndex { $0.id == Subject.pure.id }!
        let (current, skipped, expected) = (all[index - 1], all[index], all[index + 1])
        try workspace.solve(skipped)
        #expect(try await run(["check", skipped.id]).status == 0)
        try workspace.solve(current)
        #expect(try await run(["check", current.id]).status == 0)
        // The current one has passed; the one after it has passed too: next skips it.
        let next = try await run(["next"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.hasPrefix("Exercise \(expected.id): \(expected.title)"), "\(next.stdout)")
        #expect(try await run(["list"]).stdout.contains("\n> \(expected.id) "))
    }

    /// The hint a failed check names is one command away (`hint NN 4`), and `--all` shows them all.
    @Test func aFailedCheckNamesTheCommandForItsHintAndThatCommandShowsIt() async throws {
        let exercise = Subject.pure
        let id = exercise.id
        let hints = HintsFile.hints(in: workspace.text(exercise.directory + "/hints.md"))
        let check = try await run(["check", id])
        let said = check.stdout.firstMatch(of: /hint (\d) helps here: swift run workshop hint (\S+) (\d)/)
        let named = try #require(said, "\(check.stdout)")
        #expect(named.1 == named.3)
        #expect(String(named.2) == id)
        let number = try #require(Int(named.1))
        let shown = try await run(["hint", id, "\(number)"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains(hints[number - 1]), "\(shown.stdout)")
        #expect(shown.stdout.contains("(\(number) of \(hints.count))"), "\(shown.stdout)")
        let all = try await run(["hint", id, "--all"])
        for hint in hints { #expect(all.stdout.contains(hint), "\(all.stdout)") }
        let none = try await run(["hint", id, "\(hints.count + 1)"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("exercise \(id) has \(hints.count) hints"), "\(none.stderr)")
    }

    @Test func listJsonIsOneDocumentForTools() async throws {
        let (solved, unsolved, hinted) = (Subject.pure, Subject.ordinary[0], Subject.ordinary[1])
        try workspace.solve(solved)
        #expect(try await run(["check", solved.id]).status == 0)
        #expect(try await run(["hint", hinted.id]).status == 0)
        #expect(try await run(["hint", hinted.id]).status == 0)
        // The same document whatever the language.
        for changes in [[:], ["LANG": "ja_JP.UTF-8"]] as [[String: String?]] {
            let listed = try await run(["list", "--json"], changes)
            #expect(listed.status == 0, "\(listed.stderr)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
            #expect(document["current"] as? String == hinted.id)
            let exercises = try #require(document["exercises"] as? [[String: Any]])
            #expect(exercises.compactMap { $0["id"] as? String } == ExerciseCatalog.exercises.map(\.id))
            for entry in exercises {
                for key in ["id", "title", "lesson", "files", "passed", "hintsShown", "hintsTotal", "current"] {
                    #expect(entry[key] != nil, "\(key) in \(entry)")
                }
            }
            let byId = Dictionary(uniqueKeysWithValues: exercises.map { ($0["id"] as! String, $0) })
            #expect(byId[solved.id]?["passed"] as? Bool == true)
            #expect(byId[unsolved.id]?["passed"] as? Bool == false)
            #expect(byId[hinted.id]?["hintsShown"] as? Int == 2)
            #expect(byId[hinted.id]?["hintsTotal"] as? Int == hinted.hints)
            #expect(byId[hinted.id]?["title"] as? String == hinted.title)
            #expect(byId[hinted.id]?["files"] as? [String] == hinted.paths)
            #expect(byId[Subject.dataRace.id]?["lesson"] is NSNull, "no lesson: null")
            #expect(exercises.filter { $0["current"] as? Bool == true }.count == 1)
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct LearnerCommandsSlowTests: LearnerCommandsSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func resetAllRestoresEveryChangedFileAndBacksEachUp() async throws {
        let changed = [Subject.ordinary[0], Subject.dataRace]
        var learners: [String: Data] = [:]
        for exercise in changed {
            let mine = Data("// my attempt at \(exercise.id)\n".utf8) + workspace.contents(exercise.paths[0])!
            try workspace.write(exercise.paths[0], mine)
            learners[exercise.id] = mine
        }
        let gone = Subject.ordinary[1]
        let first = changed[0].id
        try FileManager.default.removeItem(atPath: workspace.path(gone.paths[0]))

        // Two hints of the first seen: after reset --all, hints start over.
        #expect(try await run(["hint", first]).status == 0)
        #expect(try await run(["hint", first]).status == 0)
        #expect(try await run(["reset", first, "--all"]).status == 64, "one exercise or --all")
        let refused = try await run(["reset", "--all"])
        #expect(refused.status == 1, "no terminal to ask, no --yes")
        #expect(refused.stderr.contains("workshop reset --all --yes"), "\(refused.stderr)")
        #expect(workspace.contents(changed[0].paths[0]) == learners[first])

        let reset = try await run(["reset", "--all", "--yes"])
        #expect(reset.status == 0, "\(reset.stdout + reset.stderr)")
        for exercise in ExerciseCatalog.exercises {
            #expect(try workspace.contents(exercise.paths[0]) == workspace.shipped(exercise), "\(exercise.id)")
        }
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(backups.count == 2, "\(backups)")
        #expect(
            Set(backups.map { workspace.contents(".workshop-backups/" + $0) }) == Set(changed.map { learners[$0.id] }))
        // One line per file: where it is, where the learner's version went.
        let lines = reset.stdout.split(separator: "\n").map(String.init)
        for (exercise, backup) in zip(changed, backups) {
            let line = try #require(lines.first { $0.contains(exercise.paths[0] + ":") }, "\(reset.stdout)")
            #expect(line.contains(".workshop-backups/" + backup), "\(line)")
            #expect(!line.contains(backups.first { $0 != backup } ?? "-"), "one file per line: \(line)")
        }
        #expect(
            lines.contains { $0.contains(gone.paths[0] + ":") && $0.contains("(it was missing)") }, "\(reset.stdout)")
        #expect(lines[0].contains("Restored 3 files as shipped; hints start over"), "\(reset.stdout)")
        let listed = try JSONSerialization.jsonObject(with: Data(try await run(["list", "--json"]).stdout.utf8))
        let entries = (listed as? [String: Any])?["exercises"] as? [[String: Any]] ?? []
        #expect(entries.first { $0["id"] as? String == first }?["hintsShown"] as? Int == 0, "hints start over")
        #expect(try await run(["list"]).stdout.contains("0 of \(ExerciseCatalog.exercises.count) exercises done"))
        #expect(try await run(["reset", "--all", "--yes"]).stdout.contains("Nothing to do."))
    }

    /// After the last one (passed), around to the first not passed. Slow tier: the last exercise's
    /// check builds a sanitized program too.
    @Test func nextWrapsAroundAfterTheLastExercise() async throws {
        let all = Subject.all
        let last = try #require(ExerciseCatalog.exercises.last)
        try workspace.solve(last)
        #expect(try await run(["check", last.id]).status == 0)
        let again = try await run(["next"])
        #expect(again.stdout.hasPrefix("Exercise \(all[0].id): "), "\(again.stdout)")
    }

    /// One notion of next: after `reset --all` (and at any other time) `workshop next` opens what
    /// `list` calls next. Before, list said the current exercise and next opened the one after it.
    @Test func nextOpensWhatListCallsNextAlsoAfterResetAll() async throws {
        let all = Subject.all
        for exercise in all.prefix(3) {
            try workspace.solve(exercise)
            #expect(try await run(["check", exercise.id]).status == 0, "\(exercise.id)")
        }
        #expect(try await run(["start", all[3].id]).status == 0)
        func listed() async throws -> String {
            let list = try await run(["list"])
            let line = try #require(list.stdout.split(separator: "\n").last.map(String.init), "\(list.stdout)")
            return try #require(
                line.firstMatch(of: /[Ee]xercise ([0-9R][0-9a-z]*)[,:]/).map { String($0.1) }
                    ?? line.firstMatch(of: /exercise ([0-9R][0-9a-z]*) \(/).map { String($0.1) }, "\(line)")
        }
        func opened() async throws -> String {
            let next = try await run(["next"])
            #expect(next.status == 0, "\(next.stderr)")
            return try #require(
                next.stdout.firstMatch(of: /^Exercise ([0-9R][0-9a-z]*):/).map { String($0.1) }, "\(next.stdout)")
        }
        // The fourth is current and not done: both say it.
        #expect(try await listed() == all[3].id)
        #expect(try await opened() == all[3].id)
        // Every exercise back as shipped: both start over from the first one.
        #expect(try await run(["reset", "--all", "--yes"]).status == 0)
        let afterReset = try await listed()
        #expect(afterReset == all[0].id)
        #expect(try await opened() == afterReset)
        // The first passes and is current: both name the next one not passed.
        try workspace.solve(all[0])
        #expect(try await run(["check", all[0].id]).status == 0)
        #expect(try await listed() == all[1].id)
        #expect(try await opened() == all[1].id)
    }
}
