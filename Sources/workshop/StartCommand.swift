import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop start NN`: makes NN the current exercise (the one `check`, `hint` and `watch` use).
struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("Make an exercise the current one: `check`, `hint` and `watch` without a number use it."))

    @Argument(
        help: ArgumentHelp(localized("The exercise, e.g. 03 or R1."), valueName: "exercise"),
        transform: exerciseArgument)
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

/// `workshop next`: the exercise `list` names after "Next:" becomes current: the current one
/// until it passes, then the next one not passed yet.
struct Next: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Go to what `list` calls next: the current exercise until it passes, then the next one not passed yet."))

    @OptionGroup var editor: EditOptions
    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        guard let following = workspace.upNext(progress: workspace.progress()) else {
            Style.line(Text.nothingLeft)
            return
        }
        try Start.begin(following, in: workspace, editor: editor)
    }
}
