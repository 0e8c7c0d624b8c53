import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 01's human output is Japanese (the run, the cancel
/// report, `--show-hang`, the flags' errors and `--help`), its `--json` is not.
final class Lesson01JapaneseTests: XCTestCase {
    let short = ["--items", "3", "--slow-latency", "0.3", "--latency", "0.02", "--control-seconds", "0.1"]
    let ways: [(arguments: [String], locale: [String: String])] = [
        (["--lang", "ja"], [:]), ([], ["LANG": "ja_JP.UTF-8"]),
    ]

    /// The English sentences in `output`, but for the completionOrder row of the table: its value is
    /// the rows' labels in the order they were shown ("login user welcome i2 i1 i3"), identifiers
    /// that are the same in every language (and in the JSON).
    func englishSentences(_ output: String) -> [String] {
        EnglishSentences.lines(in: output).filter { !$0.hasPrefix("completionOrder ") }
    }

    func lesson01(_ arguments: [String], locale: [String: String] = [:], status: Int32 = 0) throws
        -> LessonBinary.Outcome
    {
        let outcome = try LessonBinary("lesson01").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson01 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, status, outcome.stderr)
        return outcome
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in ways {
            let output = try lesson01(short + arguments, locale: locale).stdout
            for japanese in [
                "レッスン 01: オペレーションキュー", "アイテム 1 はさらに 0.3 秒かかり", "no-thread: すべてのリクエストをメインスレッドから送り",
                "threaded: FetchOperation と ParseOperation", "async: ログインを await し", "時間の使われ方", "マシン: ", "指標",
                "キューは最大 2 個のリクエストを同時に走らせ", "Operation も自前のスレッドもなしで",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(englishSentences(output), [], "\(locale) \(arguments)")
        }
    }

    func testTheCancelReportIsJapanese() throws {
        // A cancelled run: the slow tier (lessons 06 and 07 check a Japanese cancel report quick).
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        // --lang ja only: the locale is asked for in the tests above; each cancelled run takes seconds.
        for (arguments, locale) in ways.prefix(1) {
            let output = try lesson01(short + ["--cancel-after", "0.05"] + arguments, locale: locale).stdout
            for japanese in ["0.05 秒でキャンセル", "キャンセル後: ", "キャンセル: no-thread は"] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(englishSentences(output), [], "\(locale) \(arguments)")
        }
    }

    func testShowHangIsJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // two runs that wait out a hang: the slow tier
        for (arguments, locale) in ways {
            let output = try lesson01(["--show-hang"] + arguments, locale: locale).stdout
            for japanese in ["を呼ばない非同期オペレーション", "isFinished = true", "違いはそれだけです"] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(englishSentences(output), [], "\(locale) \(arguments)")
        }
    }

    /// One variant at a time: the takeaway has its own sentences then.
    func testOneVariantSpeaksJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // a run per variant: the slow tier
        var outputs = ""
        for variant in ["threaded", "async", "no-thread"] {
            let output = try lesson01(short + [] + ["--variant", variant, "--lang", "ja"]).stdout
            XCTAssertEqual(englishSentences(output), [], variant)
            outputs += output
        }
        for japanese in ["比べるには、既定のとおり 3 つのバリアントをすべて実行してください", "async: 同時に最大 2 リクエスト"] {
            XCTAssertTrue(outputs.contains(japanese), "no \"\(japanese)\" in\n\(outputs)")
        }
    }

    func testBadFlagsAreExplainedInJapanese() throws {
        for (flags, japanese) in [
            (["--items", "0"], "--items は 1 から 100 の間で指定してください(指定値: 0)"),
            (["--width", "99"], "--width は 1 から 16 の間で指定してください(指定値: 99)"),
            (["--slow-latency", "31"], "--slow-latency は 0 から 30 秒の間で指定してください"),
            (["--bandwidth", "-5"], "--bandwidth には 0(無制限)か"),
            (["--fault", "sometimes"], "--fault には 100〜599 の HTTP ステータスか"),
        ] {
            for (arguments, locale) in ways {
                let outcome = try lesson01(flags + arguments, locale: locale, status: 64)
                XCTAssertTrue(outcome.stderr.contains(japanese), "\(flags) \(locale): \(outcome.stderr)")
            }
        }
    }

    func testHelpIsJapanese() throws {
        for (arguments, locale) in ways {
            // ArgumentParser wraps long lines at spaces: compare with every run of white space as one space.
            let help = try lesson01(["--help"] + arguments, locale: locale).stdout.split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            for japanese in [
                "オペレーションキュー: ログインしてユーザーを取得し", "元になった記事: 「NSOperation を使って外部 API から非同期に結果を取得してみる」",
                "ログインのあとに取得するアイテムの数です", "実行するバリアント: no-thread", "フィクスチャサーバが各レスポンスを返す前に待つ秒数です",
            ] {
                XCTAssertTrue(help.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(help)")
            }
        }
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish(
            "lesson01", short + ["--json"], takeawayStartsWith: "The queue ran up to 2 requests at once")
    }
}
