import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopServer

@testable import WorkshopTools
@testable import workshop

/// The board names a failing check from its own catalog, never from what a learner sent: every
/// check `workshop check` can report has an id there, with the names the learner saw.
@Suite("Room board: every check has an id and its names")
struct BoardCheckCatalogTests {
    @Test("the checks the workshop runs itself: the same names, English and Japanese, as it prints them")
    func workshopChecks() {
        let runner = [
            "the exercise file is there", "the checks' library is built", ExerciseRunner.compileCheck,
            "the checks start", ExerciseRunner.finishCheck, ExerciseRunner.crashCheck,
        ]
        for name in runner {
            let check = BoardCheck.workshopChecks.first { $0.id == BoardCheck.id(for: name) }
            #expect(check?.name == name, "\(name)")
            #expect(check?.nameJapanese == ExerciseRunner.japanese(name), "\(name)")
        }
        // The checks' library's, which `workshop` itself builds.
        let library = SupportLibrary.failure("").name
        let check = BoardCheck.workshopChecks.first { $0.id == BoardCheck.id(for: library) }
        #expect(check?.nameJapanese == workshop.localized(library, in: .ja))
        #expect(BoardCheck.workshopChecks.count == runner.count + 1)
    }

    @Test("every exercise's checks: an id each, none shared with another check it may report")
    func exercisesChecks() throws {
        let board = BoardExercise.load(root: ExerciseRoot.builtFrom)
        #expect(board.map(\.id) == ExerciseCatalog.exercises.map(\.id))
        for exercise in ExerciseCatalog.exercises {
            let column = try #require(board.first { $0.id == exercise.id })
            #expect(column.checks.map(\.name) == exercise.checks, "\(exercise.id)")
            let ids = (column.checks + BoardCheck.workshopChecks).map(\.id)
            #expect(!ids.contains(""), "\(exercise.id): a check whose English name has no letter or digit")
            #expect(Set(ids).count == ids.count, "\(exercise.id): two checks share an id: \(ids)")
            for name in exercise.checks {
                let check = try #require(column.check(BoardCheck.id(for: name)))
                #expect(check.nameJapanese == exercise.japaneseCheckNames[name], "\(exercise.id): \(name)")
            }
        }
    }

    @Test("a check's report carries the id of the first failing check, and its name for an older board")
    func reports() {
        let exercise = Subject.pure
        let failing = CheckResult(
            name: "fetches `width` icons at once", ja: "取得する", passed: false, expected: "", got: "", hint: 1)
        let notRun = CheckResult.notRun("the rows", ja: "行")
        let report = BoardSync.report(
            exercise, ExerciseRunner.Report(results: [failing, notRun]), secondsSpent: 30)
        #expect(report.check == "fetches-width-icons-at-once")
        #expect(report.failingCheck == "fetches `width` icons at once")
        let stopped = BoardSync.report(exercise, ExerciseRunner.Report(results: [notRun]), secondsSpent: 30)
        #expect(stopped.check == "the-rows")
    }
}
