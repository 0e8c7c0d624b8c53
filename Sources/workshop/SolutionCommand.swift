import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop solution NN`: once the exercise passes its checks, the reference solution and
/// how the learner's file differs from it; before that, how to get there.
struct Solution: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("Once an exercise passes: its reference solution and its diff against your file."),
        discussion: localized(
            """
            Until your file passes, this says how to get there (hints, check) and shows nothing of \
            the answer. Your files are checked first, unless the last check of exactly these files passed.
            """))

    @OptionGroup var choice: ExerciseChoice

    @Flag(help: ArgumentHelp(localized("Do not build the checks' library first.")))
    var noBuild = false

    @OptionGroup var limits: CheckLimits
    @OptionGroup var language: LanguageOption

    func run() throws {
        var workspace = Workspace.locate()
        guard let exercise = choice.meant(in: &workspace) else { return }
        for file in exercise.files {
            let solution = exercise.solutionDirectory + "/" + file
            if !FileManager.default.fileExists(atPath: workspace.path(solution)) {
                throw WorkshopFailure(
                    localized(
                        format:
                            "%@, the reference, is missing. It comes with the workshop: copy it from a new download or clone of the workshop.",
                        solution))
            }
        }
        // Passed already (the last check of exactly these files, or an earlier version that
        // came back), or passes now: only the failures are printed.
        if workspace.state(exercise, progress: workspace.progress()).status != .done {
            let results = Check.run(exercise, in: workspace, buildLibrary: !noBuild, limits: limits, quiet: true)
            guard Check.passed(results) else {
                Style.line()
                Style.line(
                    Text.solutionHidden(
                        exercise, failed: results.filter { !$0.passed && !$0.notRun }.count, of: results.count))
                for line in Text.solutionWay(exercise.id) { Style.line(line) }
                // Not an error of the command, but not what was asked for either: scripts see 1.
                throw ExitCode(1)
            }
        }
        Style.line(Style.bold(Text.solutionHeader(exercise)))
        Style.line(Style.dim(Text.oneWay))
        for file in exercise.files {
            let solution = exercise.solutionDirectory + "/" + file
            let learner = exercise.directory + "/" + file
            Style.line()
            Style.line(Style.dim("\(solution):1"))
            Style.line((try? String(contentsOfFile: workspace.path(solution), encoding: .utf8)) ?? "")
            Style.line(Style.dim(Text.yoursAgainstReference))
            let diff = try? Subprocess.run(
                "diff", ["-u", "--label", learner, "--label", solution, learner, solution],
                currentDirectory: workspace.root.path, timeout: 30)
            guard let diff, diff.status == 1, !diff.stdout.isEmpty else {
                // 0: the same; anything else: no `diff` here, or it failed, and the reference was shown.
                if diff?.status == 0 { Style.line(Text.sameAsReference) }
                continue
            }
            for line in diff.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("+") && !line.hasPrefix("+++") {
                    Style.line(Style.green(String(line)))
                } else if line.hasPrefix("-") && !line.hasPrefix("---") {
                    Style.line(Style.red(String(line)))
                } else {
                    Style.line(String(line))
                }
            }
        }
    }
}
