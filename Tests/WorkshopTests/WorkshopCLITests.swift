import ExerciseChecks
import Foundation
import Testing
import WorkshopCore

/// Drives the built `workshop` binary against throwaway copies of the exercises. The checks
/// of R1 compile the file they are given, so a solved copy really passes; the others' checks
/// run the code compiled into the binary, which is the shipped file.
@Suite(.enabled(if: WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop"), .serialized)
struct WorkshopCLITests {
    @Test func listShowsStatusesProgressAndTheNextStep() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        try copy.solveR1()
        let check = try WorkshopBinary.run(["check", "R1", "--no-build"], root: copy.root)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let list = try WorkshopBinary.run([], root: copy.root)
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        let r1 = try #require(lines.first { $0.hasPrefix("R1 ") }, "\(list.stdout)")
        #expect(r1.hasSuffix("done"), "\(r1)")
        let o3 = try #require(lines.first { $0.hasPrefix("03 ") }, "\(list.stdout)")
        #expect(o3.hasSuffix("not started"), "\(o3)")
        #expect(list.stdout.contains("1 of \(ExerciseCatalog.suites.count) exercises done"), "\(list.stdout)")
        #expect(list.stdout.contains("Next: exercise"), "\(list.stdout)")
        #expect(!list.stdout.contains("\u{1B}["), "NO_COLOR and no terminal: no escape codes")

        // A failed check turns "not started" into "failing".
        let failed = try WorkshopBinary.run(["check", "03", "--no-build"], root: copy.root)
        #expect(failed.status == 1)
        let again = try WorkshopBinary.run(["list"], root: copy.root)
        #expect(again.stdout.split(separator: "\n").contains { $0.hasPrefix("03 ") && $0.hasSuffix("failing") }, "\(again.stdout)")
    }

    /// On a terminal (faked with util-linux `script`) there is colour, unless NO_COLOR is set.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        func onATerminal(_ environment: String) throws -> String {
            let command = "env \(environment) WORKSHOP_ROOT='\(copy.root.path)' '\(WorkshopBinary.path)' list"
            return try Subprocess.run("/usr/bin/script", ["-qec", command, "/dev/null"], timeout: 60).stdout
        }
        let coloured = try onATerminal("-u NO_COLOR TERM=xterm")
        #expect(coloured.contains("\u{1B}[1mSakusaku Workshop"), "\(coloured.debugDescription)")
        let plain = try onATerminal("TERM=xterm NO_COLOR=1")
        #expect(plain.contains("Sakusaku Workshop") && !plain.contains("\u{1B}["), "\(plain)")
    }

    @Test func checkFailsTheShippedFileAndPassesASolvedOne() throws {
        let shipped = try WorkshopCopy()
        defer { shipped.remove() }
        let failing = try WorkshopBinary.run(["check", "R1", "--no-build"], root: shipped.root)
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("FAIL  no data race under the thread sanitizer"), "\(failing.stdout)")
        // The sanitizer's report, demangled: the race is in `record`.
        #expect(failing.stdout.contains("RequestCounter.record(_:)"), "\(failing.stdout)")
        #expect(failing.stdout.contains("swift run workshop hint R1"), "\(failing.stdout)")

        let solved = try WorkshopCopy()
        defer { solved.remove() }
        try solved.solveR1()
        let passing = try WorkshopBinary.run(["check", "R1", "--no-build"], root: solved.root)
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("All 3 checks pass"), "\(passing.stdout)")

        // A suite compiled into the binary (03) runs its checks on the shipped file: it fails.
        let lesson = try WorkshopBinary.run(["check", "3", "--no-build"], root: shipped.root)
        #expect(lesson.status == 1)
        #expect(lesson.stdout.contains("FAIL  returns at once"), "\(lesson.stdout)")
    }

    @Test func aCopyThatDiffersFromTheCompiledFileIsNotCheckedAsIfItWereTheSame() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        var edited = try #require(copy.contents(Exercise03Checks.exerciseFile))
        edited.append(contentsOf: Array("\n// edited\n".utf8))
        try copy.write(Exercise03Checks.exerciseFile, edited)
        let outcome = try WorkshopBinary.run(["check", "03", "--no-build"], root: copy.root)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("the workshop was built from this file"), "\(outcome.stdout)")
    }

    @Test func aTrapInExerciseCodeIsAFailedCheckNotADeadCLI() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        let outcome = try WorkshopBinary.run(["check", "03", "--no-build", "--rehearse-trap"], root: copy.root)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("FAIL  your code runs without a crash"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("main queue"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("stopped by signal"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("swift run workshop hint 03"), "\(outcome.stdout)")
    }

    @Test func hintShowsOneMoreEachTime() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        let first = try WorkshopBinary.run(["hint", "R1"], root: copy.root)
        #expect(first.status == 0)
        #expect(first.stdout.contains("\n1. ") && !first.stdout.contains("\n2. "), "\(first.stdout)")
        let second = try WorkshopBinary.run(["hint", "R1"], root: copy.root)
        #expect(second.stdout.contains("\n1. ") && second.stdout.contains("\n2. ") && !second.stdout.contains("\n3. "), "\(second.stdout)")
        #expect(second.stdout.contains("Ask again for hint 3"), "\(second.stdout)")
    }

    @Test func resetRestoresTheShippedFileAndKeepsABackup() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        try git(copy, ["init", "-q"])
        try git(copy, ["add", "-A"])
        try git(copy, ["commit", "-q", "-m", "as shipped"])
        let learners = Data("// the learner's attempt\n".utf8) + (copy.contents(ExerciseR1Checks.exerciseFile) ?? Data())
        try copy.write(ExerciseR1Checks.exerciseFile, learners)
        // The learner commits their attempt: reset must still find the shipped version.
        try git(copy, ["commit", "-q", "-a", "-m", "my attempt"])

        // No terminal to ask and no --yes: nothing changes.
        let refused = try WorkshopBinary.run(["reset", "R1"], root: copy.root)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
        #expect(copy.contents(ExerciseR1Checks.exerciseFile) == learners)

        let reset = try WorkshopBinary.run(["reset", "R1", "--yes"], root: copy.root)
        #expect(reset.status == 0, "\(reset.stdout)\(reset.stderr)")
        #expect(ShippedFile.fingerprint(of: copy.path(ExerciseR1Checks.exerciseFile)) == ExerciseR1Checks.shippedFingerprint)
        let backups = try FileManager.default.subpathsOfDirectory(atPath: copy.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }
        #expect(backups.count == 1, "\(backups)")
        let backup = try #require(backups.first)
        #expect(copy.contents(".workshop-backups/" + backup) == learners)
        #expect(reset.stdout.contains(backup), "\(reset.stdout)")
    }

    @Test func verifyPassesAsShippedAndFailsWhenAnExerciseShipsSolved() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        let clean = try WorkshopBinary.run(["verify", "--no-references", "--no-build"], root: copy.root)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        for suite in ExerciseCatalog.suites {
            #expect(clean.stdout.split(separator: "\n").contains { $0.hasPrefix(suite.id + " ") && $0.hasSuffix("ok") },
                    "\(suite.id): \(clean.stdout)")
        }

        try copy.solveR1()
        let solved = try WorkshopBinary.run(["verify", "--no-references", "--no-build"], root: copy.root)
        #expect(solved.status == 1, "\(solved.stdout)\(solved.stderr)")
        let row = try #require(solved.stdout.split(separator: "\n").first { $0.hasPrefix("R1 ") }, "\(solved.stdout)")
        #expect(row.contains("PASSES (ships solved)") && row.hasSuffix("FAIL"), "\(row)")
    }

    @Test func watchChecksAgainWhenTheFileChangesAndMovesOn() throws {
        let copy = try WorkshopCopy()
        defer { copy.remove() }
        // Every exercise but R1 counts as done, so R1 is the one watched.
        var exercises: [String: Any] = [:]
        for suite in ExerciseCatalog.suites where suite.id != ExerciseR1Checks.id {
            exercises[suite.id] = ["checkedFingerprint": ShippedFile.fingerprint(of: copy.path(suite.exerciseFile)) ?? "",
                                   "passed": true, "failedChecks": 0, "hintsShown": 0]
        }
        try copy.write(".workshop-progress", try JSONSerialization.data(withJSONObject: ["exercises": exercises]))

        let watch = try WatchedProcess(arguments: ["watch", "--no-build", "--interval", "0.2", "--max-seconds", "200"], root: copy.root)
        // The first check of the shipped file fails, then it waits for a change.
        #expect(watch.waitFor("Watching \(ExerciseR1Checks.directory)/", timeout: 200), "\(watch.output)")
        #expect(watch.output.contains("FAIL  no data race"), "\(watch.output)")
        try copy.solveR1()
        let status = watch.waitForExit(timeout: 200)
        #expect(status == 0, "\(watch.output)")
        #expect(watch.output.contains("Changed: \(ExerciseR1Checks.exerciseFile)"), "\(watch.output)")
        #expect(watch.output.contains("All 3 checks pass"), "\(watch.output)")
        #expect(watch.output.contains("Next: nothing left"), "\(watch.output)")
    }

    func git(_ copy: WorkshopCopy, _ arguments: [String]) throws {
        let outcome = try Subprocess.run("git", ["-C", copy.root.path, "-c", "user.name=Workshop Test", "-c", "user.email=test@example.invalid",
                                                 "-c", "commit.gpgsign=false"] + arguments, timeout: 60)
        #expect(outcome.succeeded, "git \(arguments): \(outcome.stderr)")
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
    }

    init(arguments: [String], root: URL) throws {
        process.executableURL = URL(fileURLWithPath: WorkshopBinary.path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = root.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
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
            changed.signal()
        }
    }

    var output: String { state.withLock { $0.output } }

    /// Waits until `text` has been printed; false after `timeout` seconds.
    func waitFor(_ text: String, timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !output.contains(text) {
            if changed.wait(timeout: deadline) == .timedOut { return output.contains(text) }
            if !process.isRunning && !output.contains(text) { return false }
        }
        return true
    }

    /// Waits for the process to end; its exit status, or nil (and it is stopped) after `timeout`.
    func waitForExit(timeout: Double) -> Int32? {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}
