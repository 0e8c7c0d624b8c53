import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 05's human output is Japanese, its `--json` is not.
final class Lesson05JapaneseTests: XCTestCase {
    let short = ["--orders", "200", "--products", "300", "--latency", "0.02", "--control-seconds", "0.1"]

    func lesson05(_ arguments: [String], locale: [String: String] = [:]) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson05").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson05 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return outcome
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in [(short + ["--lang", "ja"], [:]), (short, ["LANG": "ja_JP.UTF-8"])] {
            let output = try lesson05(arguments, locale: locale).stdout
            for japanese in [
                "レッスン 05: キャッシュ。注文 200 件", "SQLite に入れた商品 300 個", "HTTP キャッシュ: ディスク上の小さなキャッシュ",
                "no-thread: 取得も先読みもパースも", "threaded: database-queue で先読みする間に",
                "async: ProductCache アクターが先読みする間に", "最初の起動: 注文の取得元はダウンロード(200)",
                "2 回目の起動: 注文の取得元はキャッシュ(期限内、リクエストなし)", "翌日の起動: 注文の取得元はキャッシュ(再検証、304)", "時間の使われ方", "指標",
                "商品 300 個の先読みは", "再起動で送ったリクエストは 0 件と 1 件だけで", "最大フリーズは",
                "データベース用のキューの代わりにアクター", "状態: 注文: ダウンロード(200)", "状態: 注文 200 件、合計 ¥",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
        }
    }

    func testACancelIsReportedInJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // a cancelled run of three variants: the slow tier
        let output = try lesson05(short + ["--cancel-after", "0.01", "--lang", "ja"]).stdout
        for japanese in ["0.01 秒でキャンセル、", "キャンセル後: リクエスト", "キャンセル: no-thread は"] {
            XCTAssertTrue(output.contains(japanese), "no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: output), [])
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish("lesson05", short + ["--json"], takeawayStartsWith: "Pre-loading 300 products took")
    }

    func testHelpAndFlagErrorsInJapanese() throws {
        let help = try lesson05(["--help", "--lang", "ja"]).stdout
        for japanese in [
            "キャッシュ: ローカルのデータベースを一度だけ辞書に先読みし", "元になった記事", "ローカルのデータベースに入れる商品の数",
            "API が返す注文の数", "プロセス内のサーバが送る Cache-Control の max-age",
        ] {
            XCTAssertTrue(help.contains(japanese), "--help --lang ja: no \"\(japanese)\" in\n\(help)")
        }
        let english = try lesson05(["--help"]).stdout
        XCTAssertTrue(english.contains("Caching: pre-load the local database"), english)
        let refused = try LessonBinary("lesson05").run(["--orders", "0", "--lang", "ja"], timeout: 60)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--orders は 1 から 50000 の間で指定してください(指定値: 0)"), refused.stderr)
    }
}
