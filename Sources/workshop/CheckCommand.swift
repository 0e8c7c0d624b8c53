import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop check [NN]`: compiles the learner's files with the exercise's driver and runs its checks.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run an exercise's checks on your file (default: the current exercise). Exit code 0 only when all pass."
    )

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1 (default: the current one).", valueName: "exercise"),
        transform: exerciseArgument)
    var exercise: Exercise?

    @Flag(help: "Do not build the checks' library first, even when it looks out of date.")
    var noBuild = false

    func run() throws {
        let workspace = Workspace.locate()
        guard let exercise = exercise ?? workspace.current(progress: .load(workspace.progressFile)) else {
            Style.line(List.next(nil))
            return
        }
        Progress.setCurrent(exercise.id, in: workspace.progressFile)
        if !Self.checkAndReport(exercise, in: workspace, buildLibrary: !noBuild) { throw ExitCode(1) }
    }

    /// Runs the checks on the learner's files, prints them, records the outcome; true when all pass.
    static func checkAndReport(_ exercise: Exercise, in workspace: Workspace, buildLibrary: Bool) -> Bool {
        let toolchain = Toolchain.current
        Style.line(
            Style.bold("Exercise \(exercise.id): \(exercise.title)")
                + Style.dim("  (\(exercise.paths.joined(separator: ", ")))"))
        // The fingerprint is taken before the checks: a file changed meanwhile is checked again.
        let sources = workspace.learnerSources(exercise)
        let fingerprint = Workspace.fingerprint(sources, of: exercise)
        if buildLibrary, let problem = SupportLibrary.ensureBuilt(toolchain) {
            print([problem], of: exercise)  // not the learner's doing: nothing recorded
            return false
        }
        let report = ExerciseRunner(toolchain: toolchain).check(
            exercise, sources: sources, hints: workspace.hints(for: exercise))
        print(report.results, of: exercise)
        Progress.update(workspace.progressFile) { progress in
            var record = progress.exercises[exercise.id] ?? Progress.Record()
            record.checkedFingerprint = fingerprint
            record.passed = report.passed
            record.failedChecks = report.failed.count
            progress.exercises[exercise.id] = record
        }
        let compile =
            report.compiled
            ? String(format: "compiled in %.1f s", report.compileSeconds) : "built before, not compiled again"
        if report.runSeconds > 0 {
            Style.line(Style.dim(String(format: "(\(compile); the checks ran in %.1f s)", report.runSeconds)))
        } else if report.compileSeconds > 0 {
            Style.line(Style.dim("(\(compile))"))
        }
        if report.passed {
            Style.line(Style.green("All \(report.results.count) checks pass. Exercise \(exercise.id) is done!"))
            return true
        }
        let total = report.results.count
        Style.line(
            "\(report.failed.count) of \(counted(total, "check")) failing. "
                + "Read the first FAIL above, change your file, check again.")
        return false
    }

    static func print(_ results: [CheckResult], of exercise: Exercise) {
        for result in results {
            if result.passed {
                Style.line("  \(Style.green("ok"))    \(result.name)")
                continue
            }
            Style.line("  \(Style.red("FAIL"))  \(result.name)")
            Style.line("        wanted: \(result.expected)")
            Style.line(
                "        got:    "
                    + result.got.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 16)))
            if result.hint > 0 {
                Style.line(Style.dim("        hint \(result.hint) helps here: swift run workshop hint \(exercise.id)"))
            }
        }
    }
}
