import ArgumentParser
import ExerciseChecks
import Foundation

/// `workshop hint [NN]`: one more hint each time.
struct Hint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the hints of an exercise, one more each time you ask (from its hints.md or hints.ja.md).")

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1 (default: the current one).", valueName: "exercise"),
        transform: exerciseArgument)
    var exercise: Exercise?

    @Flag(help: "Show every hint at once.")
    var all = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        guard let exercise = exercise ?? workspace.current(progress: workspace.progress()) else {
            Style.line(List.next(nil))
            return
        }
        let hints = workspace.hints(for: exercise)
        guard !hints.isEmpty else {
            throw WorkshopFailure(Text.noHints(workspace.document(exercise, "hints")))
        }
        var shown = 0
        workspace.updateProgress { progress in
            progress.current = exercise.id
            var record = progress.exercises[exercise.id] ?? Progress.Record()
            record.hintsShown = all ? hints.count : min(hints.count, record.hintsShown + 1)
            shown = record.hintsShown
            progress.exercises[exercise.id] = record
        }
        Style.line(Style.bold(Text.hintsHeader(exercise, shown: shown, of: hints.count)))
        for (index, hint) in hints.prefix(shown).enumerated() {
            Style.line()
            Style.line(index == shown - 1 ? hint : Style.dim(hint))
        }
        Style.line()
        Style.line(
            Style.dim(
                shown < hints.count
                    ? Text.askAgain(shown + 1, exercise.id) : Text.lastHint(workspace.readme(exercise))))
    }
}
