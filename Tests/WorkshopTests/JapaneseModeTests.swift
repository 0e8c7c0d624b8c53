import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// `workshop` speaks Japanese with a Japanese locale or `--lang ja`, and `--lang en` wins over
/// the locale: the list, the check's results and verdict, the hints (from hints.ja.md),
/// reset's question and the solution's message.
final class JapaneseModeTests: XCTestCase {
    var workspace: TestWorkspace!

    override func setUpWithError() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        workspace = try TestWorkspace()
    }

    override func tearDown() {
        workspace?.remove()
    }

    let japanese: [String: String?] = ["LANG": "ja_JP.UTF-8"]

    func run(_ arguments: [String], _ changes: [String: String?] = [:]) throws -> Subprocess.Outcome {
        try WorkshopBinary.run(arguments, root: workspace.root, changes: changes)
    }

    func testAJapaneseLocaleListsInJapanese() throws {
        let list = try run(["list"], japanese)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("全 \(ExerciseCatalog.exercises.count) 演習中 0 件完了"), list.stdout)
        XCTAssertTrue(list.stdout.contains("未着手"), list.stdout)
        XCTAssertTrue(list.stdout.contains("日本語の禁則処理"), list.stdout)
        XCTAssertFalse(list.stdout.contains("not started"), list.stdout)
        // Every exercise has its Japanese title, the one its README.ja.md starts with.
        for exercise in ExerciseCatalog.exercises {
            let heading = workspace.text(exercise.directory + "/README.ja.md").split(separator: "\n")[0]
            let title = heading.dropFirst("# 演習 \(exercise.id): ".count)
            XCTAssertTrue(list.stdout.contains(title.prefix(8)), "\(exercise.id)'s Japanese title: \(list.stdout)")
        }
        // LC_ALL and LC_MESSAGES ask too; --lang beats the locale, either way.
        XCTAssertTrue(try run(["list"], ["LC_ALL": "ja_JP.UTF-8"]).stdout.contains("未着手"))
        XCTAssertTrue(try run(["list"], ["LC_MESSAGES": "ja_JP.UTF-8"]).stdout.contains("未着手"))
        XCTAssertTrue(try run(["list", "--lang", "ja"]).stdout.contains("未着手"))
        XCTAssertTrue(try run(["--lang", "ja"]).stdout.contains("未着手"))
        let english = try run(["list", "--lang", "en"], japanese)
        XCTAssertTrue(english.stdout.contains("not started") && !english.stdout.contains("未着手"), english.stdout)
        let bad = try run(["--lang", "fr"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--lang takes en or ja"), bad.stderr)
    }

    func testCheckHintsResetAndSolutionInJapanese() throws {
        let exercise = Subject.pure
        let (id, total, failing) = (exercise.id, exercise.checks.count + 1, exercise.failsAsShipped.count)
        let check = try run(["check", id], japanese)
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.hasPrefix("演習 \(id): \(exercise.titleJapanese)"), check.stdout)
        XCTAssertTrue(check.stdout.contains("期待:"), check.stdout)
        XCTAssertEqual(check.stdout.split(separator: "\n").last, "演習 \(id): \(total) 件中 \(failing) 件のチェックが失敗")
        XCTAssertTrue(
            try run(["check", id, "--lang", "en"], japanese).stdout.hasSuffix("\(failing) of \(total) checks fail\n"))

        let hints = HintsFile.hints(in: workspace.text(exercise.directory + "/hints.ja.md"))
        XCTAssertEqual(hints.count, exercise.hints)
        let hint = try run(["hint", id, "--lang", "ja"])
        XCTAssertEqual(hint.status, 0, hint.stderr)
        XCTAssertTrue(
            hint.stdout.hasPrefix("演習 \(id) のヒント: \(exercise.titleJapanese)  (\(exercise.hints) 件中 1 件)"),
            hint.stdout)
        XCTAssertTrue(hint.stdout.contains(hints[0]), "the first hint of hints.ja.md: \(hint.stdout)")

        let solution = try run(["solution", id], japanese)
        XCTAssertTrue(solution.stdout.contains("まだチェックに合格していません"), solution.stdout)

        try workspace.write(exercise.paths[0], Data("// mine\n".utf8) + workspace.contents(exercise.paths[0])!)
        let reset = try run(["reset", id], japanese)
        XCTAssertEqual(reset.status, 1)
        XCTAssertTrue(reset.stderr.contains("尋ねる端末がありません"), reset.stderr)
        let done = try run(["reset", id, "--yes"], japanese)
        XCTAssertTrue(done.stdout.contains("配布時の状態に戻しました"), done.stdout)

        try workspace.solve(exercise)
        let passed = try run(["check", id], japanese)
        XCTAssertEqual(passed.stdout.split(separator: "\n").last, "演習 \(id) 合格")
        XCTAssertTrue(try run(["next"], japanese).stdout.hasPrefix("演習 \(Subject.after(exercise).id): "))
    }
}
