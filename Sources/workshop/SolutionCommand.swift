import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop solution NN`: the reference solution, as the difference from the file as shipped.
struct Solution: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the reference solution of an exercise, as a diff from the file as shipped (a spoiler!).")

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1.", valueName: "exercise"), transform: exerciseArgument)
    var exercise: Exercise

    func run() throws {
        let workspace = Workspace.locate()
        Style.line(Style.bold("Exercise \(exercise.id): \(exercise.title), the reference solution"))
        Style.line(Style.dim("One way to pass every check; yours may differ and pass too."))
        for file in exercise.files {
            let shipped = exercise.shippedDirectory + "/" + file
            let solution = exercise.solutionDirectory + "/" + file
            for relative in [shipped, solution] where !FileManager.default.fileExists(atPath: workspace.path(relative))
            {
                throw WorkshopFailure("\(relative) is missing: `git checkout -- Tests/ExerciseFiles` brings it back")
            }
            Style.line()
            let diff = try? Subprocess.run(
                "diff", ["-u", "--label", "as shipped", "--label", "solution", shipped, solution],
                currentDirectory: workspace.root.path, timeout: 30)
            if let diff, diff.status == 1, !diff.stdout.isEmpty {
                for line in diff.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("+") && !line.hasPrefix("+++") {
                        Style.line(Style.green(String(line)))
                    } else if line.hasPrefix("-") && !line.hasPrefix("---") {
                        Style.line(Style.red(String(line)))
                    } else {
                        Style.line(String(line))
                    }
                }
            } else {
                // No `diff` on this machine: the whole file.
                Style.line(Style.dim("\(solution):"))
                Style.line((try? String(contentsOfFile: workspace.path(solution), encoding: .utf8)) ?? "")
            }
        }
    }
}
