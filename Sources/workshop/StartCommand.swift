import ArgumentParser
import ExerciseChecks
import Foundation

/// `workshop start NN`: makes NN the current exercise (the one `check`, `hint` and `watch` use).
struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make an exercise the current one: `check`, `hint` and `watch` without a number use it.")

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1.", valueName: "exercise"), transform: exerciseArgument)
    var exercise: Exercise

    func run() throws {
        let workspace = Workspace.locate()
        Progress.setCurrent(exercise.id, in: workspace.progressFile)
        let state = workspace.state(exercise, progress: .load(workspace.progressFile))
        Style.line(
            Style.bold("Exercise \(exercise.id): \(exercise.title)") + "  " + Style.status(state.status)
                + (state.note.map { Style.dim(" (\($0))") } ?? ""))
        Style.line("Read \(exercise.directory)/README.md, change \(exercise.paths.joined(separator: ", ")),")
        Style.line("then `swift run workshop check` (or `swift run workshop watch`). Stuck? `swift run workshop hint`.")
    }
}
