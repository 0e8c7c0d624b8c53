import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop sync`: for instructors and maintainers. Writes what is derived from each
/// exercise's declared checks and files, so that nobody copies it by hand: from the checks in
/// `.meta/*.swift` (compiled with the reference, asked with `--list-checks`), `.meta/exercise.json`'s
/// check names and the check tables of README.md and README.ja.md (`ExerciseSync`); from the
/// exercise's files, exercise.json's hint count, and `failsAsShipped` and `uses` when they no
/// longer hold (`DerivedEntries`); from the catalog, the titles and their count wherever the
/// texts say them (`CatalogTexts`); and each learner's file, as it is in the tree, to its copy as
/// shipped in `.meta/shipped` (what `reset` restores: an author's change to the file as shipped
/// takes effect here). With `--check`, changes nothing and exits 1 if a file differs.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "For maintainers: write what each exercise's declared checks and files decide (check names, README check tables, .meta/shipped)."
        ),
        discussion: localized(
            "From the checks declared in .meta, compiled with the reference: exercise.json's check names and the READMEs' check tables. From the exercise's files: exercise.json's hint count, and failsAsShipped and uses when they no longer hold (a check they name is gone, a name they use is no longer declared). From the catalog: the titles and their count wherever the texts say them. And each exercise's file, as it is now, copied to .meta/shipped: the file as shipped, which `reset` restores. Run it after changing a file as shipped; in a learner's copy it would make the learner's work the file as shipped."
        ))

    @Argument(
        help: ArgumentHelp(
            localized("Only these exercises, e.g. 03 R1 (default: all of them)."), valueName: "exercise"),
        transform: exerciseArgument)
    var only: [Exercise] = []

    @Flag(help: ArgumentHelp(localized("Change nothing; exit 1 if a file is not what the checks declare.")))
    var check = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        let toolchain = Toolchain.current
        if let problem = SupportLibrary.ensureBuilt(toolchain) {
            Check.print([problem], of: ExerciseCatalog.exercises[0])
            throw ExitCode(1)
        }
        let sync = ExerciseSync(runner: ExerciseRunner(toolchain: toolchain))
        var differing = 0
        var failed = false
        // A file that differs: named with --check, written without it.
        func settle(_ path: String, _ text: String) throws {
            differing += 1
            if check {
                print(localized(format: "%@ is not what the checks declare", path))
            } else {
                try Data(text.utf8).write(to: workspace.root.appendingPathComponent(path))
                print(localized(format: "wrote %@", path))
            }
        }
        // The copies as shipped, byte for byte (no compile).
        for exercise in only.isEmpty ? ExerciseCatalog.exercises : only {
            for change in ShippedFiles.changes(exercise, root: workspace.root) {
                differing += 1
                if check {
                    print(localized(format: "%@ differs from the exercise's file in its folder", change.path))
                } else {
                    let url = workspace.root.appendingPathComponent(change.path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try change.data.write(to: url)
                    print(localized(format: "wrote %@", change.path))
                }
            }
        }
        // The titles and the count, from the catalog (no compile).
        for change in CatalogTexts.changes(ExerciseCatalog.exercises, root: workspace.root) {
            try settle(change.path, change.text)
        }
        for exercise in only.isEmpty ? ExerciseCatalog.exercises : only {
            switch sync.changes(exercise, root: workspace.root, solution: workspace.solutionSources(exercise)) {
            case .failure(let failure):
                Style.warnLine(
                    localized(
                        format: "%1$@: its declared checks could not be read: %2$@", exercise.id,
                        failure.description))
                failed = true
            case .success(let changes):
                for change in changes { try settle(change.path, change.text) }
            }
        }
        if failed || (check && differing > 0) { throw ExitCode(1) }
        if differing == 0 { print(localized("sync: every file says what the checks declare.")) }
    }
}
