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

    @OptionGroup var editor: EditOptions
    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        try Self.begin(exercise, in: workspace, editor: editor)
    }

    /// Makes `exercise` current, says what to do, and opens it when asked.
    static func begin(_ exercise: Exercise, in workspace: Workspace, editor: EditOptions) throws {
        workspace.setCurrent(exercise.id)
        let state = workspace.state(exercise, progress: workspace.progress())
        Style.line(
            Style.bold(Text.exercise(exercise)) + "  " + Style.status(state.status)
                + (state.note.map { Style.dim(" (\($0))") } ?? ""))
        Style.line(Text.startRead(workspace.readme(exercise), workspace.locations(exercise).joined(separator: ", ")))
        Style.line(Text.startThen)
        if editor.wanted { try editor.open(exercise, in: workspace) }
    }
}

/// `workshop next`: the next exercise not passed yet after the current one becomes current.
struct Next: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move on: the next exercise not passed yet (after the current one) becomes the current one.")

    @OptionGroup var editor: EditOptions
    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        let progress = workspace.progress()
        let following: Exercise?
        if let id = progress.current, let current = ExerciseCatalog.exercise(id: id) {
            // The current one itself when it is the only one left.
            following =
                workspace.next(after: current, progress: progress)
                ?? (workspace.state(current, progress: progress).status == .done ? nil : current)
        } else {
            following = workspace.states(progress: progress).first { $0.status != .done }?.exercise
        }
        guard let following else {
            Style.line(Text.nothingLeft)
            return
        }
        try Start.begin(following, in: workspace, editor: editor)
    }
}
