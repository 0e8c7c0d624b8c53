import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop verify`: for instructors and CI. For every exercise, the way `check` does it
/// (compiled with the exercise's driver, run in a child process):
/// - the copy as shipped (Tests/ExerciseFiles/<folder>/shipped) compiles and fails at least
///   one check, or the checks test nothing;
/// - the reference solution (Tests/ExerciseFiles/<folder>/solution) passes every check;
/// - the learner's files in Exercises/ are the copies as shipped (a room ready to start).
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "For instructors and CI: every exercise ships unsolved, every reference passes, Exercises/ is as shipped. Exit 1 otherwise."
    )

    @Argument(
        help: ArgumentHelp("Only these exercises, e.g. 03 R1 (default: all of them).", valueName: "exercise"),
        transform: exerciseArgument)
    var only: [Exercise] = []

    @Flag(help: "Do not build the checks' library first.")
    var noBuild = false

    @OptionGroup var language: LanguageOption

    struct Row {
        var id: String
        var learner: String
        var shipped: String
        var reference: String
        var ok: Bool
    }

    func run() throws {
        let workspace = Workspace.locate()
        let toolchain = Toolchain.current
        if !noBuild, let problem = SupportLibrary.ensureBuilt(toolchain) {
            Check.print([problem], of: ExerciseCatalog.exercises[0])
            throw ExitCode(1)
        }
        let runner = ExerciseRunner(toolchain: toolchain)
        let started = monotonicSeconds()
        var rows: [Row] = []
        let exercises = only.isEmpty ? ExerciseCatalog.exercises : only
        for exercise in exercises {
            Style.line(Style.dim("Checking exercise \(exercise.id): the copy as shipped, then the reference..."))
            var ok = true
            let shippedSources = workspace.shippedSources(exercise)
            let learner: String
            switch Workspace.fingerprint(workspace.learnerSources(exercise), of: exercise) {
            case nil: learner = "MISSING"
            case Workspace.fingerprint(shippedSources, of: exercise): learner = "as shipped"
            default: learner = "CHANGED"
            }
            if learner != "as shipped" { ok = false }

            let shipped: String
            if Workspace.fingerprint(shippedSources, of: exercise) == nil {
                shipped = "MISSING"
            } else {
                let report = runner.check(exercise, sources: shippedSources)
                let compiles = report.results.first?.name == ExerciseRunner.compileCheck && report.results[0].passed
                if !compiles {
                    shipped = "DOES NOT COMPILE: \(report.results.first?.got.split(separator: "\n").first ?? "")"
                } else if report.passed {
                    shipped = "PASSES (ships solved)"
                } else {
                    shipped = "fails \(report.failed.count) of \(counted(report.results.count, "check"))"
                }
                if !compiles || report.passed { ok = false }
            }

            let reference: String
            let solutionSources = workspace.solutionSources(exercise)
            if Workspace.fingerprint(solutionSources, of: exercise) == nil {
                reference = "MISSING"
                ok = false
            } else {
                let report = runner.check(exercise, sources: solutionSources)
                reference =
                    report.passed
                    ? "passes \(counted(report.results.count, "check"))"
                    : "FAILS: \(report.failed.first?.name ?? "no checks ran")"
                if !report.passed { ok = false }
            }
            rows.append(Row(id: exercise.id, learner: learner, shipped: shipped, reference: reference, ok: ok))
        }

        let header = ["exercise", "Exercises/ file", "copy as shipped", "reference", "verdict"]
        let table = rows.map { [$0.id, $0.learner, $0.shipped, $0.reference, $0.ok ? "ok" : "FAIL"] }
        let widths = header.indices.map { column in ([header] + table).map { terminalWidth($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let text = zip(cells, widths).map { Style.pad($0, $1) }.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        Style.line()
        Style.line(line(header))
        Style.line(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
        for row in table { Style.line(line(row)) }
        let bad = rows.filter { !$0.ok }
        Style.line()
        let seconds = String(format: "%.0f s", monotonicSeconds() - started)
        if bad.isEmpty {
            let summary =
                rows.count == 1
                ? "exercise \(rows[0].id) ships unsolved and its reference passes"
                : "all \(rows.count) exercises ship unsolved and their references pass"
            Style.line("verify: \(summary) (\(seconds)).")
        } else {
            Style.line(
                "verify: not right: \(bad.map(\.id).joined(separator: ", ")) "
                    + "(\(bad.count) of \(counted(rows.count, "exercise")); \(seconds)).")
            if rows.contains(where: { $0.learner != "as shipped" }) {
                Style.line(
                    "A changed Exercises/ file is a learner's work: `swift run workshop reset NN` keeps a backup of it."
                )
            }
            throw ExitCode(1)
        }
    }
}
