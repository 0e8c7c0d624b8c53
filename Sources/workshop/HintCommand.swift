import ArgumentParser
import ExerciseChecks
import Foundation

/// `workshop hint [NN]`: one more hint each time.
struct Hint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the hints of an exercise, one more each time you ask (from its hints.md).")

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1 (default: the current one).", valueName: "exercise"),
        transform: exerciseArgument)
    var exercise: Exercise?

    @Flag(help: "Show every hint at once.")
    var all = false

    func run() throws {
        let workspace = Workspace.locate()
        guard let exercise = exercise ?? workspace.current(progress: .load(workspace.progressFile)) else {
            Style.line(List.next(nil))
            return
        }
        let hints = workspace.hints(for: exercise)
        guard !hints.isEmpty else {
            throw WorkshopFailure("no numbered hints in \(exercise.directory)/hints.md")
        }
        var shown = 0
        Progress.update(workspace.progressFile) { progress in
            progress.current = exercise.id
            var record = progress.exercises[exercise.id] ?? Progress.Record()
            record.hintsShown = all ? hints.count : min(hints.count, record.hintsShown + 1)
            shown = record.hintsShown
            progress.exercises[exercise.id] = record
        }
        Style.line(
            Style.bold("Hints for exercise \(exercise.id): \(exercise.title)")
                + Style.dim("  (\(shown) of \(hints.count))"))
        for (index, hint) in hints.prefix(shown).enumerated() {
            Style.line()
            Style.line(index == shown - 1 ? hint : Style.dim(hint))
        }
        Style.line()
        Style.line(
            shown < hints.count
                ? Style.dim("Ask again for hint \(shown + 1): swift run workshop hint \(exercise.id)")
                : Style.dim("That was the last hint. \(exercise.directory)/README.md says what each check wants."))
    }
}
