import ArgumentParser
import WorkshopTools

/// The exercise a learner's command is about: the one named (`03`, `R1`), else the one the
/// workspace means (the current exercise, or the folder the command runs in; see
/// `Workspace.meant`). One declaration for `check`, `hint`, `solution` and `watch`, so their
/// argument reads and behaves the same in each.
struct ExerciseChoice: ParsableArguments {
    @Argument(
        help: ArgumentHelp(localized("The exercise, e.g. 03 or R1 (default: the current one)."), valueName: "exercise"),
        transform: exerciseArgument)
    var exercise: Exercise?

    /// The exercise meant, or nil once it has said what to do next (nothing is current and
    /// everything passes, or nothing is started).
    ///
    /// `checkedNext`: the command checks the exercise named next (`check`, `solution`, `watch`),
    /// so a missing progress file is rebuilt from the checks of the others only (`rebuildSkips`).
    func meant(in workspace: inout Workspace, checkedNext: Bool = true) -> Exercise? {
        if checkedNext, let exercise { workspace.rebuildSkips = [exercise.id] }
        guard let meant = exercise ?? workspace.meant(progress: workspace.progress()) else {
            Style.line(List.next(nil))
            return nil
        }
        return meant
    }
}
