import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop hint [NN]`: one more hint each time.
struct Hint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Show the hints of an exercise, one more each time you ask (from its hints.md or hints.ja.md)."))

    @OptionGroup var choice: ExerciseChoice

    @Argument(
        help: ArgumentHelp(
            localized("Show up to this hint at once, e.g. the one a failed check names (`workshop hint NN 4`)."),
            valueName: "hint"))
    var number: Int?

    @Flag(help: ArgumentHelp(localized("Show every hint at once.")))
    var all = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        var workspace = Workspace.locate()
        guard let exercise = choice.meant(in: &workspace, checkedNext: false) else { return }
        let hints = workspace.hints(for: exercise)
        guard !hints.isEmpty else {
            throw WorkshopFailure(Text.noHints(workspace.document(exercise, "hints")))
        }
        if let number, !(1...hints.count).contains(number) {
            throw WorkshopFailure(Text.noSuchHint(number, exercise.id, count: hints.count))
        }
        var shown = 0
        workspace.updateProgress { progress in
            progress.current = exercise.id
            var record = progress.exercises[exercise.id] ?? Progress.Record()
            if all {
                record.hintsShown = hints.count
            } else if let number {
                record.hintsShown = max(record.hintsShown, number)
            } else {
                record.hintsShown = min(hints.count, record.hintsShown + 1)
            }
            shown = record.hintsShown
            progress.exercises[exercise.id] = record
        }
        // The hint asked for stands out; the ones before it are dimmed.
        let newest = number ?? shown
        Style.line(Style.bold(Text.hintsHeader(exercise, shown: shown, of: hints.count)))
        for (index, hint) in hints.prefix(shown).enumerated() {
            Style.line()
            Style.line(index == newest - 1 ? hint : Style.dim(hint))
        }
        Style.line()
        Style.line(
            Style.dim(
                shown < hints.count
                    ? Text.askAgain(shown + 1, exercise.id) : Text.lastHint(workspace.readme(exercise))))
    }
}
