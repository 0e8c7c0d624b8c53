import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 03's human output is Japanese, its `--json` is not.
final class Lesson03JapaneseTests: XCTestCase {
    let short = ["--rows", "4", "--latency", "0.02", "--control-seconds", "0.1"]

    func lesson03(_ arguments: [String], locale: [String: String] = [:]) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson03").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson03 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return outcome
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in [(short + ["--lang", "ja"], [:]), (short, ["LANG": "ja_JP.UTF-8"])] {
            let output = try lesson03(arguments, locale: locale).stdout
            for japanese in [
                "レッスン 03: GCD のキュー", "時間の使われ方", "マシン: ", "指標", "メインスレッドが空いたままになった",
                "キャッシュでリクエストが",
                // The Screen speaks the app user's language too (its plain lines in a pipe).
                "再読み込み: 4 行", "プレースホルダ: 読み込み中...", "アイコン: 1 行目",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
        }
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish(
            "lesson03", short + ["--json"], takeawayStartsWith: "Queues did not make the network faster")
    }

    func testHelpIsJapanese() throws {
        let help = try lesson03(["--help", "--lang", "ja"]).stdout
        for japanese in [
            "GCD のキュー: 公開タイムラインとアイコン", "no-thread はタイムラインもアイコンもすべてメインスレッドで取得する",
            "取得するタイムラインの投稿数", "取得したアイコンを残しません", "実行するバリアント",
        ] {
            XCTAssertTrue(help.contains(japanese), "no \"\(japanese)\" in\n\(help)")
        }
        let english = try lesson03(["--help"]).stdout
        XCTAssertTrue(english.contains("Timeline entries to fetch (1-500)."), english)
    }

    /// Errors from the server or the connection are said in Japanese (the URL stays as it is).
    func testServerErrorsAreExplainedInJapanese() throws {
        for (fault, japanese) in [("500", "HTTP 500 を返しました"), ("drop", "応答の途中で接続が切れました")] {
            let arguments = short + ["--fault", fault, "--timeout", "2", "--variant", "threaded", "--lang", "ja"]
            let outcome = try LessonBinary("lesson03").run(arguments, timeout: 60)
            XCTAssertEqual(outcome.status, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("threaded バリアントが失敗しました"), outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains(japanese), "\(fault): no \"\(japanese)\" in\n\(outcome.stderr)")
            XCTAssertEqual(EnglishSentences.lines(in: outcome.stderr), [], outcome.stderr)
        }
    }
}
