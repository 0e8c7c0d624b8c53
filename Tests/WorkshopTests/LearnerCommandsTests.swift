import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// The learner's commands beyond check and hint, on the built binary and a throwaway
/// workspace of the files as shipped: solution (only once passed), --edit, reset --all, next,
/// list --json, and the verdict line that ends every check.
///
/// What LearnerCommandsTests and LearnerCommandsSlowTests (the slow tier) share; no tests of its own.
class LearnerCommandsCase: XCTestCase {
    var workspace: TestWorkspace!

    override func setUpWithError() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        workspace = try TestWorkspace()
    }

    override func tearDown() {
        workspace?.remove()
    }

    func run(_ arguments: [String], _ changes: [String: String?] = [:]) throws -> Subprocess.Outcome {
        try WorkshopBinary.run(arguments, root: workspace.root, changes: changes)
    }

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

final class LearnerCommandsTests: LearnerCommandsCase {
    func testSolutionStaysHiddenUntilTheExercisePassesThenShowsTheReferenceAndTheDiff() throws {
        let exercise = Subject.pure
        let id = exercise.id
        let reference = workspace.text(exercise.solutionDirectory + "/" + exercise.files[0])
        // A line only the reference has: the answer must not leak before the exercise passes.
        let shipped = Set(workspace.text(exercise.paths[0]).split(separator: "\n"))
        let secret = try XCTUnwrap(
            reference.split(separator: "\n").first { !shipped.contains($0) && $0.count > 20 }.map(String.init))

        let hidden = try run(["solution", id])
        XCTAssertEqual(hidden.status, 1, "not what was asked for: scripts see 1. \(hidden.stderr)")
        let counts = "(\(exercise.failsAsShipped.count) of \(exercise.checks.count + 1) fail)"
        XCTAssertTrue(hidden.stdout.contains("does not pass its checks yet \(counts)"), hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("swift run workshop hint \(id)"), hidden.stdout)
        XCTAssertFalse(hidden.stdout.contains(secret), "no spoiler before passing: \(hidden.stdout)")

        // Solved another way than byte for byte: a comment of the learner's more.
        try workspace.write(exercise.paths[0], Data(("// my own note\n" + reference).utf8))
        let shown = try run(["solution", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("the reference solution"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains(secret), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("--- \(exercise.paths[0])"), shown.stdout)
        XCTAssertTrue(
            shown.stdout.contains("\n-// my own note"), "the diff against the learner's file: \(shown.stdout)")
        XCTAssertTrue(try run(["list"]).stdout.contains("done"), "the check it ran was recorded")

        try workspace.solve(exercise)
        let same = try run(["solution", id])
        XCTAssertTrue(same.stdout.contains("Your file is the reference, byte for byte."), same.stdout)
    }

    func testCheckEndsWithOneVerdictLine() throws {
        let pure = Subject.pure
        let failing = try run(["check", pure.id])
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(
            lastLine(failing.stdout),
            "exercise \(pure.id): \(pure.failsAsShipped.count) of \(pure.checks.count + 1) checks fail")
        try workspace.solve(pure)
        let passing = try run(["check", pure.id])
        XCTAssertEqual(passing.status, 0)
        XCTAssertEqual(lastLine(passing.stdout), "exercise \(pure.id) passed")
    }

    /// A file that does not compile still counts against the exercise's whole list of checks:
    /// the compile check failed, the others did not run.
    func testACompileErrorCountsTheExercisesTotal() throws {
        let pure = Subject.pure
        try workspace.write(pure.paths[0], Data((workspace.text(pure.paths[0]) + "\n}\n").utf8))
        let check = try run(["check", pure.id])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(
            lastLine(check.stdout),
            "exercise \(pure.id): 1 of \(pure.checks.count + 1) checks fails, \(pure.checks.count) not run")
    }

    /// Inside an exercise's folder, the commands that take an exercise mean that one, not the
    /// current one; and its folder's name works wherever an id does.
    func testInsideAnExercisesFolderTheCommandsMeanThatExercise() throws {
        let exercises = Subject.all
        let current = exercises[0]
        let here = try XCTUnwrap(exercises.last { $0.id != current.id && $0.files.count == 1 })
        _ = try run(["start", current.id])
        let folder = here.directory
        let check = try WorkshopBinary.run(["check"], root: workspace.root, in: folder)
        XCTAssertTrue(lastLine(check.stdout).hasPrefix("exercise \(here.id)"), check.stdout)
        let hint = try WorkshopBinary.run(["hint"], root: workspace.root, in: folder)
        XCTAssertTrue(hint.stdout.contains(here.id), hint.stdout)
        let solution = try WorkshopBinary.run(["solution"], root: workspace.root, in: folder)
        XCTAssertTrue((solution.stdout + solution.stderr).contains(here.id), solution.stdout + solution.stderr)
        try workspace.write(here.paths[0], Data("// changed\n".utf8))
        let reset = try WorkshopBinary.run(["reset", "--yes"], root: workspace.root, in: folder)
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertNotEqual(workspace.text(here.paths[0]), "// changed\n", "reset without an id reset the folder's file")
        // The folder's name is an id too, from anywhere.
        let byFolder = try run(["check", here.folder])
        XCTAssertTrue(lastLine(byFolder.stdout).hasPrefix("exercise \(here.id)"), byFolder.stdout)
        let byPath = try run(["hint", here.directory + "/"])
        XCTAssertEqual(byPath.status, 0, byPath.stderr)
    }

    /// `list` fits the terminal: nothing cut when it is wide, no line wider than it when narrow.
    func testListFitsTheTerminalsWidth() throws {
        let wide = try run(["list"], ["COLUMNS": "200"])
        XCTAssertFalse(wide.stdout.contains("…"), wide.stdout)
        for title in Subject.all.map(\.title) { XCTAssertTrue(wide.stdout.contains(title), title) }
        let narrow = try run(["list"], ["COLUMNS": "72"])
        for line in narrow.stdout.split(separator: "\n") where line.hasPrefix("  ") || line.hasPrefix("> ") {
            XCTAssertLessThanOrEqual(terminalWidth(String(line)), 72, String(line))
        }
    }

    func testEditOpensTheCurrentFileAtItsFirstTodo() throws {
        let editor = try fakeEditor()
        let iconLoader = Subject.ordinary[0]
        let location = "\(iconLoader.paths[0]):\(firstTodoLine(iconLoader))"
        XCTAssertGreaterThan(firstTodoLine(iconLoader), 1)

        // $EDITOR gets the path.
        let start = try run(["start", iconLoader.id, "--edit"], ["EDITOR": editor.command])
        XCTAssertEqual(start.status, 0, start.stderr)
        XCTAssertEqual(workspace.text("editor.log"), iconLoader.paths[0] + "\n")
        XCTAssertTrue(start.stdout.contains(location), "path:line wherever a file is named: \(start.stdout)")

        // --edit-cmd gets path:line; `workshop` with no command opens the current exercise.
        let list = try run(["--edit-cmd", editor.command + " -g"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(workspace.text("editor.log"), "-g\n\(location)\n")
        XCTAssertTrue(list.stdout.contains(location), list.stdout)

        // `next --edit` opens what `list` calls next: the same exercise, until it passes.
        let next = try run(["next", "--edit"], ["EDITOR": editor.command])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(workspace.text("editor.log"), iconLoader.paths[0] + "\n")

        // No editor, or one that does not run: a clear error, exit 1.
        let none = try run(["start", iconLoader.id, "--edit"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("set EDITOR") && none.stderr.contains("--edit-cmd"), none.stderr)
        let missing = try run(["--edit-cmd", "no-such-editor-anywhere"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no-such-editor-anywhere` did not run"), missing.stderr)
    }

    /// On a terminal (faked with util-linux `script`), `reset --all` asks once, in the
    /// learner's language; no answer (end of input) changes nothing.
    func testResetAllAsksOnATerminalAndNoAnswerChangesNothing() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no util-linux script")
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
            let asked = try Subprocess.run("/usr/bin/script", ["-qec", command, "/dev/null"], timeout: 60)
            XCTAssertEqual(asked.stdout.components(separatedBy: question).count, 2, "asked once: \(asked.stdout)")
            XCTAssertEqual(workspace.contents(file), mine, "no answer, no change")
        }
    }

    func testNextSkipsWhatPassedAndMakesItCurrent() throws {
        // Two exercises in a row pass, the second first; the first is current then.
        let all = Subject.all
        let index = all.firstIndex { $0.id == Subject.pure.id }!
        let (current, skipped, expected) = (all[index - 1], all[index], all[index + 1])
        try workspace.solve(skipped)
        XCTAssertEqual(try run(["check", skipped.id]).status, 0)
        try workspace.solve(current)
        XCTAssertEqual(try run(["check", current.id]).status, 0)
        // The current one has passed; the one after it has passed too: next skips it.
        let next = try run(["next"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasPrefix("Exercise \(expected.id): \(expected.title)"), next.stdout)
        XCTAssertTrue(try run(["list"]).stdout.contains("\n> \(expected.id) "))
    }

    /// The hint a failed check names is one command away (`hint NN 4`), and `--all` shows them all.
    func testAFailedCheckNamesTheCommandForItsHintAndThatCommandShowsIt() throws {
        let exercise = Subject.pure
        let id = exercise.id
        let hints = HintsFile.hints(in: workspace.text(exercise.directory + "/hints.md"))
        let check = try run(["check", id])
        let said = check.stdout.firstMatch(of: /hint (\d) helps here: swift run workshop hint (\S+) (\d)/)
        let named = try XCTUnwrap(said, check.stdout)
        XCTAssertEqual(named.1, named.3)
        XCTAssertEqual(String(named.2), id)
        let number = try XCTUnwrap(Int(named.1))
        let shown = try run(["hint", id, "\(number)"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains(hints[number - 1]), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("(\(number) of \(hints.count))"), shown.stdout)
        let all = try run(["hint", id, "--all"])
        for hint in hints { XCTAssertTrue(all.stdout.contains(hint), all.stdout) }
        let none = try run(["hint", id, "\(hints.count + 1)"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("exercise \(id) has \(hints.count) hints"), none.stderr)
    }

    func testListJsonIsOneDocumentForTools() throws {
        let (solved, unsolved, hinted) = (Subject.pure, Subject.ordinary[0], Subject.ordinary[1])
        try workspace.solve(solved)
        XCTAssertEqual(try run(["check", solved.id]).status, 0)
        XCTAssertEqual(try run(["hint", hinted.id]).status, 0)
        XCTAssertEqual(try run(["hint", hinted.id]).status, 0)
        // The same document whatever the language.
        for changes in [[:], ["LANG": "ja_JP.UTF-8"]] as [[String: String?]] {
            let listed = try run(["list", "--json"], changes)
            XCTAssertEqual(listed.status, 0, listed.stderr)
            let document = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], listed.stdout)
            XCTAssertEqual(document["current"] as? String, hinted.id)
            let exercises = try XCTUnwrap(document["exercises"] as? [[String: Any]])
            XCTAssertEqual(exercises.compactMap { $0["id"] as? String }, ExerciseCatalog.exercises.map(\.id))
            for entry in exercises {
                for key in ["id", "title", "lesson", "files", "passed", "hintsShown", "hintsTotal", "current"] {
                    XCTAssertNotNil(entry[key], "\(key) in \(entry)")
                }
            }
            let byId = Dictionary(uniqueKeysWithValues: exercises.map { ($0["id"] as! String, $0) })
            XCTAssertEqual(byId[solved.id]?["passed"] as? Bool, true)
            XCTAssertEqual(byId[unsolved.id]?["passed"] as? Bool, false)
            XCTAssertEqual(byId[hinted.id]?["hintsShown"] as? Int, 2)
            XCTAssertEqual(byId[hinted.id]?["hintsTotal"] as? Int, hinted.hints)
            XCTAssertEqual(byId[hinted.id]?["title"] as? String, hinted.title)
            XCTAssertEqual(byId[hinted.id]?["files"] as? [String], hinted.paths)
            XCTAssertTrue(byId[Subject.dataRace.id]?["lesson"] is NSNull, "no lesson: null")
            XCTAssertEqual(exercises.filter { $0["current"] as? Bool == true }.count, 1)
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class LearnerCommandsSlowTests: LearnerCommandsCase {
    func testResetAllRestoresEveryChangedFileAndBacksEachUp() throws {
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
        XCTAssertEqual(try run(["hint", first]).status, 0)
        XCTAssertEqual(try run(["hint", first]).status, 0)
        XCTAssertEqual(try run(["reset", first, "--all"]).status, 64, "one exercise or --all")
        let refused = try run(["reset", "--all"])
        XCTAssertEqual(refused.status, 1, "no terminal to ask, no --yes")
        XCTAssertTrue(refused.stderr.contains("workshop reset --all --yes"), refused.stderr)
        XCTAssertEqual(workspace.contents(changed[0].paths[0]), learners[first])

        let reset = try run(["reset", "--all", "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stdout + reset.stderr)
        for exercise in ExerciseCatalog.exercises {
            XCTAssertEqual(
                workspace.contents(exercise.paths[0]),
                try workspace.shipped(exercise), exercise.id)
        }
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertEqual(backups.count, 2, "\(backups)")
        XCTAssertEqual(
            Set(backups.map { workspace.contents(".workshop-backups/" + $0) }),
            Set(changed.map { learners[$0.id] }))
        // One line per file: where it is, where the learner's version went.
        let lines = reset.stdout.split(separator: "\n").map(String.init)
        for (exercise, backup) in zip(changed, backups) {
            let line = try XCTUnwrap(lines.first { $0.contains(exercise.paths[0] + ":") }, reset.stdout)
            XCTAssertTrue(line.contains(".workshop-backups/" + backup), "\(line)")
            XCTAssertFalse(line.contains(backups.first { $0 != backup } ?? "-"), "one file per line: \(line)")
        }
        XCTAssertTrue(
            lines.contains { $0.contains(gone.paths[0] + ":") && $0.contains("(it was missing)") }, reset.stdout)
        XCTAssertTrue(lines[0].contains("Restored 3 files as shipped; hints start over"), reset.stdout)
        let listed = try JSONSerialization.jsonObject(with: Data(try run(["list", "--json"]).stdout.utf8))
        let entries = (listed as? [String: Any])?["exercises"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.first { $0["id"] as? String == first }?["hintsShown"] as? Int, 0, "hints start over")
        XCTAssertTrue(try run(["list"]).stdout.contains("0 of \(ExerciseCatalog.exercises.count) exercises done"))
        XCTAssertTrue(try run(["reset", "--all", "--yes"]).stdout.contains("Nothing to do."))
    }

    /// After the last one (passed), around to the first not passed. Slow tier: the last exercise's
    /// check builds a sanitized program too.
    func testNextWrapsAroundAfterTheLastExercise() throws {
        let all = Subject.all
        let last = try XCTUnwrap(ExerciseCatalog.exercises.last)
        try workspace.solve(last)
        XCTAssertEqual(try run(["check", last.id]).status, 0)
        let again = try run(["next"])
        XCTAssertTrue(again.stdout.hasPrefix("Exercise \(all[0].id): "), again.stdout)
    }

    /// One notion of next: after `reset --all` (and at any other time) `workshop next` opens what
    /// `list` calls next. Before, list said the current exercise and next opened the one after it.
    func testNextOpensWhatListCallsNextAlsoAfterResetAll() throws {
        let all = Subject.all
        for exercise in all.prefix(3) {
            try workspace.solve(exercise)
            XCTAssertEqual(try run(["check", exercise.id]).status, 0, exercise.id)
        }
        XCTAssertEqual(try run(["start", all[3].id]).status, 0)
        func listed() throws -> String {
            let list = try run(["list"])
            let line = try XCTUnwrap(list.stdout.split(separator: "\n").last.map(String.init), list.stdout)
            return try XCTUnwrap(
                line.firstMatch(of: /[Ee]xercise ([0-9R][0-9a-z]*)[,:]/).map { String($0.1) }
                    ?? line.firstMatch(of: /exercise ([0-9R][0-9a-z]*) \(/).map { String($0.1) }, line)
        }
        func opened() throws -> String {
            let next = try run(["next"])
            XCTAssertEqual(next.status, 0, next.stderr)
            return try XCTUnwrap(
                next.stdout.firstMatch(of: /^Exercise ([0-9R][0-9a-z]*):/).map { String($0.1) }, next.stdout)
        }
        // The fourth is current and not done: both say it.
        XCTAssertEqual(try listed(), all[3].id)
        XCTAssertEqual(try opened(), all[3].id)
        // Every exercise back as shipped: both start over from the first one.
        XCTAssertEqual(try run(["reset", "--all", "--yes"]).status, 0)
        let afterReset = try listed()
        XCTAssertEqual(afterReset, all[0].id)
        XCTAssertEqual(try opened(), afterReset)
        // The first passes and is current: both name the next one not passed.
        try workspace.solve(all[0])
        XCTAssertEqual(try run(["check", all[0].id]).status, 0)
        XCTAssertEqual(try listed(), all[1].id)
        XCTAssertEqual(try opened(), all[1].id)
    }
}
