import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `workshop` speaks Japanese with a Japanese locale or `--lang ja`, and `--lang en` wins over
/// the locale: the list, the check's results and verdict, the hints (from hints.ja.md),
/// reset's question and the solution's message.
@Suite struct JapaneseModeTests: WorkspaceSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    let japanese: [String: String?] = ["LANG": "ja_JP.UTF-8"]

    @Test func aJapaneseLocaleListsInJapanese() async throws {
        let list = try await run(["list"], japanese)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("全 \(ExerciseCatalog.exercises.count) 演習中 0 件完了"), "\(list.stdout)")
        #expect(list.stdout.contains("未着手"), "\(list.stdout)")
        #expect(list.stdout.contains("日本語の禁則処理"), "\(list.stdout)")
        #expect(!list.stdout.contains("not started"), "\(list.stdout)")
        // Every exercise has its Japanese title, the one its README.ja.md starts with.
        for exercise in ExerciseCatalog.exercises {
            let heading = workspace.text(exercise.directory + "/README.ja.md").split(separator: "\n")[0]
            let title = heading.dropFirst("# 演習 \(exercise.id): ".count)
            #expect(list.stdout.contains(title.prefix(8)), "\(exercise.id)'s Japanese title: \(list.stdout)")
        }
        // LC_ALL and LC_MESSAGES ask too; --lang beats the locale, either way.
        #expect(try await run(["list"], ["LC_ALL": "ja_JP.UTF-8"]).stdout.contains("未着手"))
        #expect(try await run(["list"], ["LC_MESSAGES": "ja_JP.UTF-8"]).stdout.contains("未着手"))
        #expect(try await run(["list", "--lang", "ja"]).stdout.contains("未着手"))
        #expect(try await run(["--lang", "ja"]).stdout.contains("未着手"))
        let english = try await run(["list", "--lang", "en"], japanese)
        #expect(english.stdout.contains("not started") && !english.stdout.contains("未着手"), "\(english.stdout)")
        let bad = try await run(["--lang", "fr"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--lang takes en or ja"), "\(bad.stderr)")
    }

    @Test func checkHintsResetAndSolutionInJapanese() async throws {
        let exercise = Subject.pure
        let (id, total, failing) = (exercise.id, exercise.checks.count + 1, exercise.failsAsShipped.count)
        let check = try await run(["check", id], japanese)
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("演習 \(id): \(exercise.titleJapanese)"), "\(check.stdout)")
        #expect(check.stdout.contains("期待:"), "\(check.stdout)")
        #expect(check.stdout.split(separator: "\n").last == "演習 \(id): \(total) 件中 \(failing) 件のチェックが失敗")
        #expect(
            try await run(["check", id, "--lang", "en"], japanese).stdout.hasSuffix(
                "\(failing) of \(total) checks fail\n"))

        let hints = HintsFile.hints(in: workspace.text(exercise.directory + "/hints.ja.md"))
        #expect(hints.count == exercise.hints)
        let hint = try await run(["hint", id, "--lang", "ja"])
        #expect(hint.status == 0, "\(hint.stderr)")
        #expect(
            hint.stdout.hasPrefix("演習 \(id) のヒント: \(exercise.titleJapanese)  (\(exercise.hints) 件中 1 件)"),
            "\(hint.stdout)")
        #expect(hint.stdout.contains(hints[0]), "the first hint of hints.ja.md: \(hint.stdout)")

        let solution = try await run(["solution", id], japanese)
        #expect(solution.stdout.contains("まだチェックに合格していません"), "\(solution.stdout)")

        try workspace.write(exercise.paths[0], Data("// mine\n".utf8) + workspace.contents(exercise.paths[0])!)
        let reset = try await run(["reset", id], japanese)
        #expect(reset.status == 1)
        #expect(reset.stderr.contains("尋ねる端末がありません"), "\(reset.stderr)")
        let done = try await run(["reset", id, "--yes"], japanese)
        #expect(done.stdout.contains("配布時の状態に戻しました"), "\(done.stdout)")

        try workspace.solve(exercise)
        let passed = try await run(["check", id], japanese)
        #expect(passed.stdout.split(separator: "\n").last == "演習 \(id) 合格")
        #expect(try await run(["next"], japanese).stdout.hasPrefix("演習 \(Subject.after(exercise).id): "))
    }
}
