import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop check [NN]`: compiles the learner's files with the exercise's driver and runs its checks.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Run an exercise's checks on your file (default: the current exercise). Exit code 0 only when all pass.")
    )

    @OptionGroup var choice: ExerciseChoice

    @Flag(help: ArgumentHelp(localized("Do not build the checks' library first, even when it looks out of date.")))
    var noBuild = false

    @OptionGroup var limits: CheckLimits
    @OptionGroup var picture: CheckPictureOptions
    @OptionGroup var language: LanguageOption

    func run() throws {
        var workspace = Workspace.locate()
        guard let exercise = choice.meant(in: &workspace) else { return }
        workspace.setCurrent(exercise.id)
        let drawing = picture.wanted ? picture : nil
        if !Self.checkAndReport(exercise, in: workspace, buildLibrary: !noBuild, limits: limits, picture: drawing) {
            throw ExitCode(1)
        }
    }

    /// Runs the checks on the learner's files, prints them, records the outcome; true when all
    /// pass. The last line printed is always the verdict: "exercise 03 passed" or
    /// "exercise 03: 2 of 3 checks fail".
    @discardableResult
    static func checkAndReport(
        _ exercise: Exercise, in workspace: Workspace, buildLibrary: Bool, limits: CheckLimits, quiet: Bool = false,
        picture: CheckPictureOptions? = nil
    ) -> Bool {
        let results = run(
            exercise, in: workspace, buildLibrary: buildLibrary, limits: limits, quiet: quiet, picture: picture)
        // Counted against the exercise's own checks and the compile check, whatever stopped the
        // run: a compile error and a hang both say "1 of N fails, M not run" for the same N.
        let total = exercise.checks.count + 1
        let declared = Set(exercise.checks + [ExerciseRunner.compileCheck])
        // A run stopped before the compile (a file missing) counts as a failed compile.
        let ran = max(1, results.filter { declared.contains($0.name) && !$0.notRun }.count)
        let notRun = max(0, total - ran)
        let failed = results.filter { !$0.passed && !$0.notRun }.count
        // The room's board, if the learner joined one: a short wait at most, never an error.
        BoardSync.flush(workspace)
        Style.line(Text.verdict(exercise.id, failed: failed, of: total, notRun: notRun))
        return passed(results)
    }

    static func passed(_ results: [CheckResult]) -> Bool { !results.isEmpty && results.allSatisfy(\.passed) }

    /// The checks' results, printed (all of them, or with `quiet` only the failures) and recorded.
    static func run(
        _ exercise: Exercise, in workspace: Workspace, buildLibrary: Bool, limits: CheckLimits, quiet: Bool = false,
        picture: CheckPictureOptions? = nil
    ) -> [CheckResult] {
        let toolchain = Toolchain.current
        if !quiet {
            Style.line(
                Style.bold(Text.exercise(exercise))
                    + Style.dim("  (\(workspace.locations(exercise).joined(separator: ", ")))"))
        }
        // The fingerprint is taken before the checks: a file changed meanwhile is checked again.
        let sources = workspace.learnerSources(exercise)
        let fingerprint = Workspace.fingerprint(sources, of: exercise)
        if buildLibrary, let problem = SupportLibrary.ensureBuilt(toolchain) {
            print([problem], of: exercise)  // not the learner's doing: nothing recorded
            return [problem]
        }
        let runner = limits.runner(toolchain)
        let report = runner.check(exercise, sources: sources, hints: workspace.hints(for: exercise))
        print(quiet ? report.failed : report.results, of: exercise)
        if let picture {
            do {
                for line in try picture.write(exercise, yours: report, in: workspace, runner: runner) {
                    Style.line(line)
                }
            } catch {
                Style.warnLine("workshop: \(error)")
            }
        }
        let now = Date().timeIntervalSince1970
        workspace.updateProgress { progress in
            progress.markStarted(exercise.id, now: now)
            var record = progress.exercises[exercise.id] ?? Progress.Record()
            record.record(fingerprint, passed: report.passed, failedChecks: report.failed.count)
            record.noteTime(passed: report.passed, at: now)
            progress.exercises[exercise.id] = record
            // Queued here, sent by `checkAndReport` (or with the next check, if the board is away).
            let boardReport = BoardSync.report(exercise, report, secondsSpent: record.secondsSpent(now: now))
            progress.board?.queue(boardReport, checkedAt: now)
        }
        if quiet { return report.results }
        if report.runSeconds > 0 || report.compileSeconds > 0 {
            Style.line(
                Style.dim(
                    Text.timings(
                        compiled: report.compiled ? report.compileSeconds : nil,
                        ran: report.runSeconds > 0 ? report.runSeconds : nil)))
        }
        Style.line(report.passed ? Style.green(Text.allPass(report.results.count)) : Text.readTheFirstFail)
        return report.results
    }

    static func print(_ results: [CheckResult], of exercise: Exercise) {
        for result in results {
            if result.notRun {
                Style.line(Style.dim("  --    \(result.displayName)  " + Text.notRun))
                continue
            }
            if result.passed {
                Style.line("  \(Style.green("ok"))    \(result.displayName)")
                continue
            }
            Style.line("  \(Style.red("FAIL"))  \(result.displayName)")
            Style.line("        \(Style.pad(Text.wanted, 7)) \(result.expected)")
            Style.line(
                "        \(Style.pad(Text.got, 7)) "
                    + result.got.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 16)))
            if result.hint > 0 {
                Style.line(Style.dim("        " + Text.hintHelps(result.hint, exercise.id)))
            }
        }
    }
}
