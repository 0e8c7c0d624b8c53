import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 07's human output is Japanese, its `--json` is not.
final class Lesson07JapaneseTests: XCTestCase {
    let short = ["--rows", "50", "--width", "24", "--control-seconds", "0.1"]

    func lesson07(_ arguments: [String], locale: [String: String] = [:]) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson07").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson07 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return outcome
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in [(short + ["--lang", "ja"], [:]), (short, ["LANG": "ja_JP.UTF-8"])] {
            let output = try lesson07(arguments, locale: locale).stdout
            for japanese in [
                "レッスン 07: レイアウトの計算。", "1. 幅 24 桁のウィンドウいっぱいのスクロールビューに入れた",
                "label をスクロールビューに Top・Left・Right・Bottom で固定:", "└─ スクロール → 幅 56 ─┘",
                "label のフレーム (0, 0, 22 x 3)、3 行。", "未確定: label.width(水平方向)は制約で決まりません: 1 行分の幅 56",
                "2. 同じものに label.width == 10 を加えると:", "エラー: 水平方向の制約が互いに矛盾しています:",
                "3. 記事のセルを 1 つのサイジングセルで測る: 行 0〜5 の高さは 25, 30, 35, 40, 45, 50 ポイント",
                "曖昧(AMBIGUOUS): 決めるものがありません", "4. 一部の角だけを丸める(半径 2。", "レイアウト前に求めると:",
                "レイアウト後に求めると:", "5. タイムラインの投稿 50 件の行の高さ、幅 24 桁",
                "no-thread: メインスレッドで全行を測ってから", "threaded: まず見積もりの高さで描き、height-queue で 500 行ずつ",
                "async: まず見積もりの高さで描き、500 行ずつのチャンク", "コンテンツの高さ", "時間の使われ方", "指標",
                "どのバリアントでも同じ 50 行の高さになりました。", "タスクグループは、自前のキューなしで",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
        }
    }

    func testCornersSVGAndOneVariantSpeakJapanese() throws {
        let output = try lesson07(short + ["--corners-svg", "--variant", "async", "--lang", "ja"]).stdout
        for japanese in ["  diagonal: <path d=\"M", "50 行の高さを測りました。", "比べるには 3 つのバリアントをすべて実行してください"] {
            XCTAssertTrue(output.contains(japanese), "no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: output), [])
    }

    func testACancelIsReportedInJapanese() throws {
        let output = try lesson07(["--rows", "10000", "--variant", "async", "--cancel-after", "0.01", "--lang", "ja"])
            .stdout
        for japanese in ["0.01 秒でキャンセル、", "キャンセル後: ", "キャンセル: async は"] {
            XCTAssertTrue(output.contains(japanese), "no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: output), [])
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish("lesson07", short + ["--json"], takeawayStartsWith: "The same 50 heights every way")
    }

    func testHelpAndFlagErrorsInJapanese() throws {
        let help = try lesson07(["--help", "--lang", "ja"]).stdout
        for japanese in [
            "レイアウトの計算: Auto Layout の制約を自分で解き", "元になった記事", "描く画面とテーブルの幅", "高さを測る行数",
            "threaded バリアントがメインキューに結果を渡すまでに測る行数", "async バリアントのタスクグループが同時に測るチャンクの数",
            "パート 4 の角丸の輪郭を SVG のパスとしても出力します",
        ] {
            XCTAssertTrue(help.contains(japanese), "--help --lang ja: no \"\(japanese)\" in\n\(help)")
        }
        let english = try lesson07(["--help"]).stdout
        XCTAssertTrue(english.contains("Layout math: Auto Layout's constraints solved by hand"), english)
        for (arguments, message) in [
            (["--width", "5"], "--width は 20 から 200 の間で指定してください(指定値: 5)"),
            (["--chunk-size", "0"], "--chunk-size は 1 から 100000 の間で指定してください(指定値: 0)"),
            (["--tasks", "9"], "--tasks は 1 から 8 の間で指定してください(指定値: 9)"),
        ] {
            let refused = try LessonBinary("lesson07").run(arguments + ["--lang", "ja"], timeout: 60)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertTrue(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }
}
