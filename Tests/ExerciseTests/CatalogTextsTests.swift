import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

/// What the texts say of the exercises is what the catalog and the checks declare: each
/// exercise's title (one string per language) in its READMEs, its lesson's text and tutorial,
/// and the syllabus; the count in "all N exercises"; and each check's name and what it wants
/// in `.meta/exercise.json` and both READMEs' check tables. `swift run workshop sync` writes
/// them; these tests fail, naming the file and the line, until it has.
struct CatalogTextsTests {
    static let root = ExerciseRoot.builtFrom

    @Test func titlesAndTheCountAreTheCatalogs() throws {
        for change in CatalogTexts.changes(ExerciseCatalog.exercises, root: Self.root) {
            let now = try String(contentsOf: Self.root.appendingPathComponent(change.path), encoding: .utf8)
            let line = CatalogTexts.firstDifferentLine(now, change.text)
            Issue.record("\(change.path):\(line) is not the catalog's title or count: run `swift run workshop sync`")
        }
    }
}

/// The slow tier (its name ends in SlowTests): each exercise's checks compiled with its
/// reference and asked for their declarations.
@Suite(.serialized) struct DeclaredChecksSlowTests {
    @Test(arguments: ExerciseCatalog.exercises.map(\.id))
    func theCatalogAndTheReadmesSayWhatTheChecksDeclare(_ id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let solution = try ExerciseFiles.sources(exercise, .solution)
        switch ExerciseSync().changes(exercise, root: ExerciseFiles.root, solution: solution) {
        case .failure(let failure):
            Issue.record("\(id): its checks' declarations could not be read: \(failure)")
        case .success(let changes):
            for change in changes {
                let now = try String(
                    contentsOf: ExerciseFiles.root.appendingPathComponent(change.path), encoding: .utf8)
                let line = CatalogTexts.firstDifferentLine(now, change.text)
                Issue.record(
                    "\(change.path):\(line) is not what the checks declare: run `swift run workshop sync \(id)`")
            }
        }
    }
}
