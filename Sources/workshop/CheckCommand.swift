import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop check [N]`: runs an exercise's checks against the learner's file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run an exercise's checks against your file (default: the current exercise). Exit code 0 only when all pass.")

    @Argument(help: ArgumentHelp("The exercise, e.g. 03 or R1 (default: the first one not done).", valueName: "exercise"))
    var exercise: ExerciseArgument?

    @Flag(help: "Do not rebuild the workshop first, even if your file is newer than it.")
    var noBuild = false

    /// Lets a test (or an instructor) see how a trap in exercise code is reported.
    @Flag(help: .hidden)
    var rehearseTrap = false

    func run() throws {
        let workspace = Workspace.locate()
        guard let suite = exercise?.suite ?? workspace.current(progress: .load(workspace.progressFile))?.suite else {
            Style.line(List.next(nil))
            return
        }
        let runner = CheckRunner(workspace: workspace, rebuild: !noBuild)
        let passed = Self.checkAndReport(suite, runner: runner, rehearseTrap: rehearseTrap)
        if !passed { throw ExitCode(1) }
    }

    /// Runs the checks, prints them, records the outcome; returns whether all passed.
    static func checkAndReport(_ suite: any ExerciseCheckSuite.Type, runner: CheckRunner, rehearseTrap: Bool = false) -> Bool {
        let workspace = runner.workspace
        Style.line(Style.bold("Exercise \(suite.id): \(suite.title)") + Style.dim("  (\(suite.exerciseFile))"))
        // The fingerprint is taken before the checks: a file changed meanwhile is checked again.
        let fingerprint = ShippedFile.fingerprint(of: workspace.path(suite.exerciseFile))
        let results = runner.run(suite, rehearseTrap: rehearseTrap)
        let failed = results.filter { !$0.passed }
        for result in results {
            if result.passed {
                Style.line("  \(Style.green("ok"))    \(result.name)")
            } else {
                Style.line("  \(Style.red("FAIL"))  \(result.name)")
                Style.line("        wanted: \(result.expected)")
                Style.line("        got:    \(result.got)")
                Style.line(Style.dim("        hint \(result.hint) helps here: swift run workshop hint \(suite.id)"))
            }
        }
        Progress.update(workspace.progressFile) { progress in
            var record = progress.exercises[suite.id] ?? Progress.Record()
            record.checkedFingerprint = fingerprint
            record.passed = failed.isEmpty && !results.isEmpty
            record.failedChecks = failed.count
            progress.exercises[suite.id] = record
        }
        if failed.isEmpty && !results.isEmpty {
            Style.line(Style.green("All \(results.count) checks pass. Exercise \(suite.id) is done!"))
            return true
        }
        Style.line("\(failed.count) of \(results.count) checks failing. Read the first FAIL above, change your file, check again.")
        return false
    }
}

/// `workshop _run-checks N`: the child process that actually runs the checks (hidden).
/// Prints the results as one JSON line after the marker, for the parent to read.
struct RunChecks: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_run-checks", shouldDisplay: false)

    @Argument var exercise: ExerciseArgument
    @Flag var reference = false
    @Flag var rehearseTrap = false

    func run() throws {
        if rehearseTrap {
            // What exercise code does when it touches the Screen from a background queue:
            // the precondition `Screen` and `TableView` run on every call, from another queue. The process traps here.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                requireMainQueue()
                done.signal()
            }
            _ = done.wait(timeout: .now() + 10)
        }
        let results: [CheckResult]
        if reference {
            guard let suite = exercise.suite as? any ChecksCompileTheFile.Type else {
                throw WorkshopFailure("exercise \(exercise.suite.id)'s reference is checked by `swift test`, not here")
            }
            results = suite.run(file: ExerciseRoot.current.appendingPathComponent(suite.referenceFile).path)
        } else {
            results = exercise.suite.runLearner()
        }
        let wire = results.map { CheckRunner.WireResult(name: $0.name, passed: $0.passed, expected: $0.expected, got: $0.got, hint: $0.hint) }
        let json = String(decoding: try JSONEncoder().encode(wire), as: UTF8.self)
        FileHandle.standardOutput.write(Data((CheckRunner.marker + json + "\n").utf8))
    }
}
