import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// Drives the built `workshop` binary against throwaway workspaces made of the files as
/// shipped (`TestWorkspace`), never the learner's. XCTest runs these one after another: the
/// checks they start measure freezes that a neighbouring compile would disturb.
///
/// What WorkshopCLITests and WorkshopCLISlowTests (the slow tier) share; no tests of its own.
class WorkshopCLICase: XCTestCase {
    var workspace: TestWorkspace!
    // The examples (see `Subject`): picked by what they are, never by id.
    let first = Subject.all[0]
    let dataRace = Subject.dataRace
    let pure = Subject.pure
    /// An ordinary exercise with three hints or more, not the first.
    let failing = Subject.ordinary.first { $0.id != Subject.all[0].id && $0.hints >= 3 }!
    /// Another ordinary one, for a file that is gone.
    let gone = Subject.ordinary.last!

    override func setUpWithError() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        workspace = try TestWorkspace()
    }

    override func tearDown() {
        workspace?.remove()
    }

    func run(_ arguments: [String]) throws -> Subprocess.Outcome {
        try WorkshopBinary.run(arguments, root: workspace.root)
    }

    func row(_ id: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first {
            $0.dropFirst(2).hasPrefix(id + " ")
        }
    }
}

final class WorkshopCLITests: WorkshopCLICase {
    /// On a terminal (faked with util-linux `script`) there is colour, unless NO_COLOR is set.
    func testColourOnlyOnATerminalAndNeverWithNoColor() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no util-linux script")
        func onATerminal(_ environment: String) throws -> String {
            let command = "env \(environment) WORKSHOP_ROOT='\(workspace.root.path)' '\(WorkshopBinary.path)' list"
            return try Subprocess.run("/usr/bin/script", ["-qec", command, "/dev/null"], timeout: 60).stdout
        }
        let coloured = try onATerminal("-u NO_COLOR TERM=xterm")
        XCTAssertTrue(coloured.contains("\u{1B}[1mSakusaku Workshop"), coloured.debugDescription)
        let plain = try onATerminal("TERM=xterm NO_COLOR=1")
        XCTAssertTrue(plain.contains("Sakusaku Workshop") && !plain.contains("\u{1B}["), plain)
    }

    func testHintShowsOneMoreEachTimeForTheCurrentExercise() throws {
        XCTAssertEqual(try run(["start", failing.id]).status, 0)
        let first = try run(["hint"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(
            first.stdout.hasPrefix("Hints for exercise \(failing.id): \(failing.title)  (1 of \(failing.hints))"),
            first.stdout)
        XCTAssertTrue(first.stdout.contains("\n1. ") && !first.stdout.contains("\n2. "), first.stdout)
        let second = try run(["hint"])
        XCTAssertTrue(second.stdout.contains("\n1. ") && second.stdout.contains("\n2. "), second.stdout)
        XCTAssertFalse(second.stdout.contains("\n3. "), second.stdout)
        XCTAssertTrue(
            second.stdout.contains("Ask again for hint 3: swift run workshop hint \(failing.id)"), second.stdout)

        // A hint of another exercise makes that one current; the first keeps its count.
        let other = try run(["hint", dataRace.id])
        XCTAssertTrue(other.stdout.hasPrefix("Hints for exercise \(dataRace.id)"), other.stdout)
        let next = try run(["hint"])
        XCTAssertTrue(
            next.stdout.contains("(2 of \(dataRace.hints))")
                && next.stdout.hasPrefix("Hints for exercise \(dataRace.id)"),
            next.stdout)
        // Typed without its leading zero, if it has one.
        let typed = failing.id.hasPrefix("0") ? String(failing.id.dropFirst()) : failing.id
        let back = try run(["hint", typed, "--all"])
        XCTAssertTrue(
            back.stdout.contains("(\(failing.hints) of \(failing.hints))")
                && back.stdout.contains("That was the last hint"),
            back.stdout)
    }

    func testCheckAndWatchWithoutANumberUseTheCurrentExercise() throws {
        let start = try run(["start", pure.id])
        XCTAssertEqual(start.status, 0, start.stderr)
        XCTAssertTrue(start.stdout.contains("Exercise \(pure.id): \(pure.title)  not started"), start.stdout)
        let check = try run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.hasPrefix("Exercise \(pure.id): \(pure.title)"), check.stdout)
        // A pure exercise fails exactly what it is about.
        let total = pure.checks.count + 1
        XCTAssertTrue(
            check.stdout.hasSuffix("\nexercise \(pure.id): \(pure.failsAsShipped.count) of \(total) checks fail\n"),
            check.stdout)

        try workspace.solve(pure)
        let watched = try run(["watch", "--once"])
        XCTAssertEqual(watched.status, 0, watched.stdout)
        XCTAssertTrue(
            watched.stdout.hasSuffix("All \(total) checks pass.\nexercise \(pure.id) passed\n"), watched.stdout)
    }

    func testResetRestoresTheShippedFileAndKeepsABackup() throws {
        let exercise = dataRace
        let file = exercise.paths[0]
        let shipped = try workspace.shipped(exercise)
        let learners = Data("// the learner's attempt\n".utf8) + shipped
        try workspace.write(file, learners)

        // No terminal to ask and no --yes: nothing changes.
        let refused = try run(["reset", exercise.id])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        XCTAssertEqual(workspace.contents(file), learners)

        let reset = try run(["reset", exercise.id, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stdout + reset.stderr)
        XCTAssertEqual(workspace.contents(file), shipped)
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }
        XCTAssertEqual(backups.count, 1, "\(backups)")
        let backup = try XCTUnwrap(backups.first)
        XCTAssertEqual(workspace.contents(".workshop-backups/" + backup), learners)
        XCTAssertTrue(reset.stdout.contains(backup), reset.stdout)
        XCTAssertTrue(try run([]).stdout.contains("not started"))

        let nothing = try run(["reset", exercise.id, "--yes"])
        XCTAssertTrue(nothing.stdout.contains("already as shipped. Nothing to do."), nothing.stdout)

        // A deleted file comes back (there is nothing to back up).
        try FileManager.default.removeItem(atPath: workspace.path(file))
        let restored = try run(["reset", exercise.id, "--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(workspace.contents(file), shipped)
        XCTAssertFalse(restored.stdout.contains("Your version"), restored.stdout)
    }

    func testBadInputGetsAClearMessage() throws {
        for arguments in [["check", "99"], ["hint", "42"], ["reset", "x", "--yes"], ["watch", "8", "--once"]] {
            let outcome = try run(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(
                outcome.stderr.contains("The exercises are \(ExerciseCatalog.ids)."),
                "\(arguments): \(outcome.stderr)")
        }
        let unknown = try run(["frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("there is no command \"frobnicate\""), unknown.stderr)
        for command in ["list", "start", "next", "check", "hint", "watch", "reset", "solution", "verify"] {
            XCTAssertTrue(unknown.stderr.contains("\n  \(command) "), "\(command): \(unknown.stderr)")
        }
        XCTAssertFalse(unknown.stderr.contains("Usage: workshop list"), unknown.stderr)
    }

    func testADeletedFileIsAFailedCheckThatSaysHowToGetItBack() throws {
        try FileManager.default.removeItem(atPath: workspace.path(gone.paths[0]))
        let check = try run(["check", gone.id])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("FAIL  the exercise file is there"), check.stdout)
        XCTAssertTrue(check.stdout.contains("`swift run workshop reset \(gone.id)` brings it back"), check.stdout)
        // Counted against the exercise's whole list, as a compile error is.
        XCTAssertEqual(
            check.stdout.split(separator: "\n").last,
            "exercise \(gone.id): 1 of \(gone.checks.count + 1) checks fails, \(gone.checks.count) not run",
            check.stdout)
        let list = try run(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(
            row(gone.id, in: list.stdout)?.contains(
                "(\(gone.files[0]) missing: swift run workshop reset \(gone.id))") == true,
            list.stdout)
        XCTAssertEqual(try run(["hint", gone.id]).status, 0)
    }

    /// A check that did not finish: stopped at `--timeout`, said in words (in Japanese too),
    /// and the checks it did not get to listed as not run, counted apart in the verdict.
    func testAHangingFileIsStoppedAndTheChecksNotRunAreListed() throws {
        // A loop that never ends where the learner writes code (every function with a TODO).
        let exercise = pure
        let hanging = DeletedCode.bodies(of: workspace.text(exercise.paths[0]), with: .endlessLoop)
        try workspace.write(exercise.paths[0], Data(hanging.utf8))
        let check = try run(["check", exercise.id, "--timeout", "1"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("FAIL  your code finishes"), check.stdout)
        XCTAssertTrue(check.stdout.contains("your code did not finish in 1 s: an endless loop"), check.stdout)
        for name in exercise.checks {
            XCTAssertTrue(
                check.stdout.contains("--    \(name)  (not run: the program stopped before it)"), check.stdout)
        }
        XCTAssertEqual(
            check.stdout.split(separator: "\n").last,
            "exercise \(exercise.id): 1 of \(exercise.checks.count + 1) checks fails, \(exercise.checks.count) not run")
        let japanese = try run(["check", exercise.id, "--timeout", "1", "--lang", "ja"])
        XCTAssertTrue(japanese.stdout.contains("あなたのコードが 1 秒以内に終わりませんでした。"), japanese.stdout)
        XCTAssertTrue(japanese.stdout.contains("（未実行: その前にプログラムが止まりました）"), japanese.stdout)
        XCTAssertEqual(
            japanese.stdout.split(separator: "\n").last,
            "演習 \(exercise.id): \(exercise.checks.count + 1) 件中 1 件のチェックが失敗、\(exercise.checks.count) 件は未実行")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class WorkshopCLISlowTests: WorkshopCLICase {
    func testListShowsStatusesProgressAndTheCurrentExercise() throws {
        let fresh = try run([])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertTrue(fresh.stdout.contains("0 of \(ExerciseCatalog.exercises.count) exercises done"), fresh.stdout)
        for exercise in ExerciseCatalog.exercises {
            XCTAssertEqual(row(exercise.id, in: fresh.stdout)?.hasSuffix("not started"), true, fresh.stdout)
        }
        // Before anything was checked, the current exercise is the first one.
        XCTAssertEqual(row(first.id, in: fresh.stdout)?.hasPrefix("> \(first.id)"), true, fresh.stdout)
        XCTAssertFalse(fresh.stdout.contains("\u{1B}["), "NO_COLOR and no terminal: no escape codes")

        try workspace.solve(dataRace)
        let check = try run(["check", dataRace.id])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(
            check.stdout.hasSuffix("All \(dataRace.checks.count + 1) checks pass.\nexercise \(dataRace.id) passed\n"),
            check.stdout)
        let list = try run(["list"])
        XCTAssertTrue(list.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), list.stdout)
        XCTAssertEqual(
            row(dataRace.id, in: list.stdout)?.hasPrefix("> \(dataRace.id)"), true,
            "the last checked is current: \(list.stdout)")
        XCTAssertEqual(row(dataRace.id, in: list.stdout)?.hasSuffix("done"), true, list.stdout)
        XCTAssertEqual(row(first.id, in: list.stdout)?.hasPrefix("  \(first.id)"), true, list.stdout)
        let after = Subject.after(dataRace).id
        XCTAssertTrue(list.stdout.contains("Exercise \(dataRace.id) is done. Next: exercise \(after)"), list.stdout)

        // A failed check turns "not started" into "failing", and makes that exercise the current one.
        let failed = try run(["check", failing.id])
        XCTAssertEqual(failed.status, 1, failed.stdout)
        XCTAssertTrue(failed.stdout.contains("FAIL  \(failing.failsAsShipped[0])"), failed.stdout)
        let again = try run(["list"])
        XCTAssertEqual(row(failing.id, in: again.stdout)?.hasSuffix("failing"), true, again.stdout)
        XCTAssertEqual(row(failing.id, in: again.stdout)?.hasPrefix("> \(failing.id)"), true, again.stdout)
    }

    func testVerifyPassesAsShippedAndFailsWhenAnExerciseShipsSolved() throws {
        // Two of them (CI runs the whole verify: every exercise both ways).
        let two = Subject.all.filter { $0.id == gone.id || $0.id == pure.id }
        let clean = try run(["verify"] + two.map(\.id))
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        let rows = clean.stdout.split(separator: "\n").filter { $0.hasSuffix("  ok") }
        XCTAssertEqual(rows.map { String($0.prefix { $0 != " " }) }, two.map(\.id), clean.stdout)
        XCTAssertTrue(rows.allSatisfy { $0.contains("as shipped") && $0.contains("fails ") }, clean.stdout)
        XCTAssertTrue(clean.stdout.contains("verify: all 2 exercises ship unsolved and their references pass"))

        // A copy as shipped that passes (the reference shipped as the learner's file, and as
        // its copy in .meta/shipped): the checks test nothing.
        let r1 = dataRace
        let solution = try XCTUnwrap(workspace.contents(r1.solutionDirectory + "/" + r1.files[0]))
        try workspace.write(r1.paths[0], solution)
        try workspace.write(ShippedFiles.path(r1, r1.files[0]), solution)
        let solved = try run(["verify", r1.id])
        XCTAssertEqual(solved.status, 1, solved.stdout + solved.stderr)
        let line = try XCTUnwrap(
            solved.stdout.split(separator: "\n").first { $0.hasPrefix(r1.id + " ") }, solved.stdout)
        XCTAssertTrue(line.contains("PASSES (ships solved)") && line.hasSuffix("FAIL"), "\(line)")
        XCTAssertTrue(solved.stdout.contains("verify: not right: \(r1.id) (1 of 1 exercise;"), solved.stdout)
        XCTAssertFalse(solved.stdout.contains("\n\(first.id) "), "only \(r1.id) was verified: \(solved.stdout)")
    }

    func testWatchChecksAgainWhenTheFileChangesAndMovesOn() throws {
        let r1 = dataRace
        let following = Subject.after(r1)
        let watch = try WatchedProcess(
            arguments: ["watch", r1.id, "--interval", "0.2", "--max-seconds", "300"], root: workspace.root)
        defer { watch.stop() }
        // The first check of the shipped file fails, then it waits for a change.
        XCTAssertTrue(watch.waitFor("Watching \(r1.directory)/", timeout: 200), watch.output)
        XCTAssertTrue(watch.output.contains("FAIL  no data race"), watch.output)
        try workspace.solve(r1)
        // It passes, and moves on to the next exercise not done (the one after it in the catalog).
        XCTAssertTrue(watch.waitFor("Watching \(following.directory)/", timeout: 200), watch.output)
        XCTAssertTrue(watch.output.contains("Changed: \(r1.paths[0])"), watch.output)
        XCTAssertTrue(watch.output.contains("All \(r1.checks.count + 1) checks pass"), watch.output)
        XCTAssertTrue(watch.output.contains("Next: exercise \(following.id)"), watch.output)
        XCTAssertEqual(row(following.id, in: try run(["list"]).stdout)?.hasPrefix("> \(following.id)"), true)
    }
}

/// `workshop watch` running in the background, its output read as it comes.
final class WatchedProcess: @unchecked Sendable {  // @unchecked: `state` is a Locked; the rest is set once in init
    private let process = Process()
    private let state = Locked(State())
    private let changed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    struct State {
        var output = ""
        /// The pipe has reached its end: nothing more will come. (Not "the process has exited":
        /// its last chunk can still be in the pipe then.)
        var ended = false
    }

    init(arguments: [String], root: URL) throws {
        process.executableURL = URL(fileURLWithPath: WorkshopBinary.path)
        process.arguments = arguments
        process.environment = WorkshopBinary.environment(root: root)
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        Thread.detachNewThread { [state, changed] in
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                state.withLock { $0.output += String(decoding: chunk, as: UTF8.self) }
                changed.signal()
            }
            state.withLock { $0.ended = true }
            changed.signal()
        }
    }

    var output: String { state.withLock { $0.output } }

    /// Waits until `text` has been printed; false after `timeout` seconds, or once the output
    /// has ended without it (read to its end: a process that has exited may still have its last
    /// lines in the pipe).
    func waitFor(_ text: String, timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while true {
            let (output, ended) = state.withLock { ($0.output, $0.ended) }
            if output.contains(text) { return true }
            if ended { return false }
            if changed.wait(timeout: deadline) == .timedOut { return self.output.contains(text) }
        }
    }

    /// Ends the process (if it still runs) and waits for it, at most 10 s.
    func stop() {
        if process.isRunning { process.terminate() }
        _ = exited.wait(timeout: .now() + 10)
    }
}
