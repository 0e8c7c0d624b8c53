import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// Drives the built `workshop` binary against throwaway workspaces made of the files as
/// shipped (`TestWorkspace`), never the learner's.
///
/// What WorkshopCLITests and WorkshopCLISlowTests (the slow tier) share.
protocol WorkshopCLISuite: WorkspaceSuite {}

extension WorkshopCLISuite {
    // The examples (see `Subject`): picked by what they are, never by id.
    var first: Exercise { Subject.all[0] }
    var dataRace: Exercise { Subject.dataRace }
    var pure: Exercise { Subject.pure }
    /// An ordinary exercise with three hints or more, not the first.
    var failing: Exercise { Subject.ordinary.first { $0.id != Subject.all[0].id && $0.hints >= 3 }! }
    /// Another ordinary one, for a file that is gone.
    var gone: Exercise { Subject.ordinary.last! }

    func row(_ id: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first {
            $0.dropFirst(2).hasPrefix(id + " ")
        }
    }
}

@Suite struct WorkshopCLITests: WorkshopCLISuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    /// On a terminal (faked with util-linux `script`) there is colour, unless NO_COLOR is set.
    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no util-linux script")
        func onATerminal(_ environment: String) async throws -> String {
            let command = "env \(environment) WORKSHOP_ROOT='\(workspace.root.path)' '\(WorkshopBinary.path)' list"
            return try await Subprocess.run(
                "/usr/bin/script", ["-qec", command, "/dev/null"], timeout: 60, in: .shared
            ).stdout
        }
        let coloured = try await onATerminal("-u NO_COLOR TERM=xterm")
        #expect(coloured.contains("\u{1B}[1mSakusaku Workshop"), "\(coloured.debugDescription)")
        let plain = try await onATerminal("TERM=xterm NO_COLOR=1")
        #expect(plain.contains("Sakusaku Workshop") && !plain.contains("\u{1B}["), "\(plain)")
    }

    @Test func hintShowsOneMoreEachTimeForTheCurrentExercise() async throws {
        #expect(try await run(["start", failing.id]).status == 0)
        let first = try await run(["hint"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.hasPrefix("Hints for exercise \(failing.id): \(failing.title)  (1 of \(failing.hints))"),
            "\(first.stdout)")
        #expect(first.stdout.contains("\n1. ") && !first.stdout.contains("\n2. "), "\(first.stdout)")
        let second = try await run(["hint"])
        #expect(second.stdout.contains("\n1. ") && second.stdout.contains("\n2. "), "\(second.stdout)")
        #expect(!second.stdout.contains("\n3. "), "\(second.stdout)")
        #expect(
            second.stdout.contains("Ask again for hint 3: swift run workshop hint \(failing.id)"), "\(second.stdout)")

        // A hint of another exercise makes that one current; the first keeps its count.
        let other = try await run(["hint", dataRace.id])
        #expect(other.stdout.hasPrefix("Hints for exercise \(dataRace.id)"), "\(other.stdout)")
        let next = try await run(["hint"])
        #expect(
            next.stdout.contains("(2 of \(dataRace.hints))")
                && next.stdout.hasPrefix("Hints for exercise \(dataRace.id)"), "\(next.stdout)")
        // Typed without its leading zero, if it has one.
        let typed = failing.id.hasPrefix("0") ? String(failing.id.dropFirst()) : failing.id
        let back = try await run(["hint", typed, "--all"])
        #expect(
            back.stdout.contains("(\(failing.hints) of \(failing.hints))")
                && back.stdout.contains("That was the last hint"), "\(back.stdout)")
    }

    @Test func checkAndWatchWithoutANumberUseTheCurrentExercise() async throws {
        let start = try await run(["start", pure.id])
        #expect(start.status == 0, "\(start.stderr)")
        #expect(start.stdout.contains("Exercise \(pure.id): \(pure.title)  not started"), "\(start.stdout)")
        let check = try await run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("Exercise \(pure.id): \(pure.title)"), "\(check.stdout)")
        // A pure exercise fails exactly what it is about.
        let total = pure.checks.count + 1
        #expect(
            check.stdout.hasSuffix("\nexercise \(pure.id): \(pure.failsAsShipped.count) of \(total) checks fail\n"),
            "\(check.stdout)")

        try workspace.solve(pure)
        let watched = try await run(["watch", "--once"])
        #expect(watched.status == 0, "\(watched.stdout)")
        #expect(
            watched.stdout.hasSuffix("All \(total) checks pass.\nexercise \(pure.id) passed\n"), "\(watched.stdout)")
    }

    @Test func resetRestoresTheShippedFileAndKeepsABackup() async throws {
        let exercise = dataRace
        let file = exercise.paths[0]
        let shipped = try workspace.shipped(exercise)
        let learners = Data("// the learner's attempt\n".utf8) + shipped
        try workspace.write(file, learners)

        // No terminal to ask and no --yes: nothing changes.
        let refused = try await run(["reset", exercise.id])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
        #expect(workspace.contents(file) == learners)

        let reset = try await run(["reset", exercise.id, "--yes"])
        #expect(reset.status == 0, "\(reset.stdout + reset.stderr)")
        #expect(workspace.contents(file) == shipped)
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }
        #expect(backups.count == 1, "\(backups)")
        let backup = try #require(backups.first)
        #expect(workspace.contents(".workshop-backups/" + backup) == learners)
        #expect(reset.stdout.contains(backup), "\(reset.stdout)")
        #expect(try await run([]).stdout.contains("not started"))

        let nothing = try await run(["reset", exercise.id, "--yes"])
        #expect(nothing.stdout.contains("already as shipped. Nothing to do."), "\(nothing.stdout)")

        // A deleted file comes back (there is nothing to back up).
        try FileManager.default.removeItem(atPath: workspace.path(file))
        let restored = try await run(["reset", exercise.id, "--yes"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(workspace.contents(file) == shipped)
        #expect(!restored.stdout.contains("Your version"), "\(restored.stdout)")
    }

    @Test func badInputGetsAClearMessage() async throws {
        for arguments in [["check", "99"], ["hint", "42"], ["reset", "x", "--yes"], ["watch", "8", "--once"]] {
            let outcome = try await run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(
                outcome.stderr.contains("The exercises are \(ExerciseCatalog.ids)."), "\(arguments): \(outcome.stderr)")
        }
        let unknown = try await run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("there is no command \"frobnicate\""), "\(unknown.stderr)")
        for command in ["list", "start", "next", "check", "hint", "watch", "reset", "solution", "verify"] {
            #expect(unknown.stderr.contains("\n  \(command) "), "\(command): \(unknown.stderr)")
        }
        #expect(!unknown.stderr.contains("Usage: workshop list"), "\(unknown.stderr)")
    }

    @Test func aDeletedFileIsAFailedCheckThatSaysHowToGetItBack() async throws {
        try FileManager.default.removeItem(atPath: workspace.path(gone.paths[0]))
        let check = try await run(["check", gone.id])
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL  the exercise file is there"), "\(check.stdout)")
        #expect(check.stdout.contains("`swift run workshop reset \(gone.id)` brings it back"), "\(check.stdout)")
        // Counted against the exercise's whole list, as a compile error is.
        #expect(
            check.stdout.split(separator: "\n").last
                == "exercise \(gone.id): 1 of \(gone.checks.count + 1) checks fails, \(gone.checks.count) not run",
            "\(check.stdout)")
        let list = try await run(["list"])
        #expect(list.status == 0)
        #expect(
            row(gone.id, in: list.stdout)?.contains(
                "(\(gone.files[0]) missing: swift run workshop reset \(gone.id))") == true, "\(list.stdout)")
        #expect(try await run(["hint", gone.id]).status == 0)
    }

    /// A check that did not finish: stopped at `--timeout`, said in words (in Japanese too),
    /// and the checks it did not get to listed as not run, counted apart in the verdict.
    @Test func aHangingFileIsStoppedAndTheChecksNotRunAreListed() async throws {
        // A loop that never ends where the learner writes code (every function with a TODO).
        let exercise = pure
        let hanging = DeletedCode.bodies(of: workspace.text(exercise.paths[0]), with: .endlessLoop)
        try workspace.write(exercise.paths[0], Data(hanging.utf8))
        let check = try await run(["check", exercise.id, "--timeout", "1"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL  your code finishes"), "\(check.stdout)")
        #expect(check.stdout.contains("your code did not finish in 1 s: an endless loop"), "\(check.stdout)")
        for name in exercise.checks {
            #expect(check.stdout.contains("--    \(name)  (not run: the program stopped before it)"), "\(check.stdout)")
        }
        #expect(
            check.stdout.split(separator: "\n").last
                == "exercise \(exercise.id): 1 of \(exercise.checks.count + 1) checks fails, \(exercise.checks.count) not run"
        )
        let japanese = try await run(["check", exercise.id, "--timeout", "1", "--lang", "ja"])
        #expect(japanese.stdout.contains("あなたのコードが 1 秒以内に終わりませんでした。"), "\(japanese.stdout)")
        #expect(japanese.stdout.contains("（未実行: その前にプログラムが止まりました）"), "\(japanese.stdout)")
        #expect(
            japanese.stdout.split(separator: "\n").last
                == "演習 \(exercise.id): \(exercise.checks.count + 1) 件中 1 件のチェックが失敗、\(exercise.checks.count) 件は未実行")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct WorkshopCLISlowTests: WorkshopCLISuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func listShowsStatusesProgressAndTheCurrentExercise() async throws {
        let fresh = try await run([])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("0 of \(ExerciseCatalog.exercises.count) exercises done"), "\(fresh.stdout)")
        for exercise in ExerciseCatalog.exercises {
            #expect(row(exercise.id, in: fresh.stdout)?.hasSuffix("not started") == true, "\(fresh.stdout)")
        }
        // Before anything was checked, the current exercise is the first one.
        #expect(row(first.id, in: fresh.stdout)?.hasPrefix("> \(first.id)") == true, "\(fresh.stdout)")
        #expect(!fresh.stdout.contains("\u{1B}["), "NO_COLOR and no terminal: no escape codes")

        try workspace.solve(dataRace)
        let check = try await run(["check", dataRace.id])
        #expect(check.status == 0, "\(check.stdout + check.stderr)")
        #expect(
            check.stdout.hasSuffix("All \(dataRace.checks.count + 1) checks pass.\nexercise \(dataRace.id) passed\n"),
            "\(check.stdout)")
        let list = try await run(["list"])
        #expect(list.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), "\(list.stdout)")
        #expect(
            row(dataRace.id, in: list.stdout)?.hasPrefix("> \(dataRace.id)") == true,
            "the last checked is current: \(list.stdout)")
        #expect(row(dataRace.id, in: list.stdout)?.hasSuffix("done") == true, "\(list.stdout)")
        #expect(row(first.id, in: list.stdout)?.hasPrefix("  \(first.id)") == true, "\(list.stdout)")
        let after = Subject.after(dataRace).id
        #expect(list.stdout.contains("Exercise \(dataRace.id) is done. Next: exercise \(after)"), "\(list.stdout)")

        // A failed check turns "not started" into "failing", and makes that exercise the current one.
        let failed = try await run(["check", failing.id])
        #expect(failed.status == 1, "\(failed.stdout)")
        #expect(failed.stdout.contains("FAIL  \(failing.failsAsShipped[0])"), "\(failed.stdout)")
        let again = try await run(["list"])
        #expect(row(failing.id, in: again.stdout)?.hasSuffix("failing") == true, "\(again.stdout)")
        #expect(row(failing.id, in: again.stdout)?.hasPrefix("> \(failing.id)") == true, "\(again.stdout)")
    }

    @Test func verifyPassesAsShippedAndFailsWhenAnExerciseShipsSolved() async throws {
        // Two of them (CI runs the whole verify: every exercise both ways).
        let two = Subject.all.filter { $0.id == gone.id || $0.id == pure.id }
        let clean = try await run(["verify"] + two.map(\.id))
        #expect(clean.status == 0, "\(clean.stdout + clean.stderr)")
        let rows = clean.stdout.split(separator: "\n").filter { $0.hasSuffix("  ok") }
        #expect(rows.map { String($0.prefix { $0 != " " }) } == two.map(\.id), "\(clean.stdout)")
        #expect(rows.allSatisfy { $0.contains("as shipped") && $0.contains("fails ") }, "\(clean.stdout)")
        #expect(clean.stdout.contains("verify: all 2 exercises ship unsolved and their references pass"))

        // A copy as shipped that passes (the reference shipped as the learner's file, and as
        // its copy in .meta/shipped): the checks test nothing.
        let r1 = dataRace
        let solution = try #require(workspace.contents(r1.solutionDirectory + "/" + r1.files[0]))
        try workspace.write(r1.paths[0], solution)
        try workspace.write(ShippedFiles.path(r1, r1.files[0]), solution)
        let solved = try await run(["verify", r1.id])
        #expect(solved.status == 1, "\(solved.stdout + solved.stderr)")
        let line = try #require(
            solved.stdout.split(separator: "\n").first { $0.hasPrefix(r1.id + " ") }, "\(solved.stdout)")
        #expect(line.contains("PASSES (ships solved)") && line.hasSuffix("FAIL"), "\(line)")
        #expect(solved.stdout.contains("verify: not right: \(r1.id) (1 of 1 exercise;"), "\(solved.stdout)")
        #expect(!(solved.stdout.contains("\n\(first.id) ")), "only \(r1.id) was verified: \(solved.stdout)")
    }

    @Test func watchChecksAgainWhenTheFileChangesAndMovesOn() async throws {
        let r1 = dataRace
        let following = Subject.after(r1)
        let watch = try Subprocess.Child(
            WorkshopBinary.path, ["watch", r1.id, "--interval", "0.2", "--max-seconds", "300"],
            environment: WorkshopBinary.environment(root: workspace.root), currentDirectory: workspace.root.path)
        defer {
            watch.signal(SIGTERM)
            _ = watch.wait(timeout: 10)
        }
        // The first check of the shipped file fails, then it waits for a change.
        #expect(await watch.printed("Watching \(r1.directory)/", within: 200), "\(watch.text)")
        #expect(watch.text.contains("FAIL  no data race"), "\(watch.text)")
        try workspace.solve(r1)
        // It passes, and moves on to the next exercise not done (the one after it in the catalog).
        #expect(await watch.printed("Watching \(following.directory)/", within: 200), "\(watch.text)")
        #expect(watch.text.contains("Changed: \(r1.paths[0])"), "\(watch.text)")
        #expect(watch.text.contains("All \(r1.checks.count + 1) checks pass"), "\(watch.text)")
        #expect(watch.text.contains("Next: exercise \(following.id)"), "\(watch.text)")
        #expect(row(following.id, in: try await run(["list"]).stdout)?.hasPrefix("> \(following.id)") == true)
    }
}

/// `workshop watch` left running: what it printed so far, read as it comes.
extension Subprocess.Child {
    /// Its standard output and error so far.
    var text: String {
        let output = output
        return output.stdoutText + output.stderrText
    }

    /// Waits until it has printed `text`; false after `seconds`, or once it ended without.
    func printed(_ text: String, within seconds: Double) async -> Bool {
        await waitForOutput(timeout: seconds) { $0.stdoutText.contains(text) || $0.stderrText.contains(text) }
    }
}
