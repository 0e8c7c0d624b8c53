import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 04's human output is Japanese (the run, the cancel
/// report, the flags' errors and `--help`), its `--json` is not.
final class Lesson04JapaneseTests: XCTestCase {
    let short = ["--latency", "0.02", "--bandwidth", "0", "--control-seconds", "0.1"]
    let ways: [(arguments: [String], locale: [String: String])] = [
        (["--lang", "ja"], [:]), ([], ["LANG": "ja_JP.UTF-8"]),
    ]

    func lesson04(_ arguments: [String], locale: [String: String] = [:], status: Int32 = 0) throws
        -> LessonBinary.Outcome
    {
        let outcome = try LessonBinary("lesson04").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson04 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, status, outcome.stderr)
        return outcome
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in ways {
            let output = try lesson04(short + arguments, locale: locale).stdout
            for japanese in [
                "レッスン 04: 通信路の gzip", "帯域は接続ごとです", "時刻はラウンドの開始からの秒数です", "no-thread: メインスレッドで API を 1 つずつ",
                "threaded: 3 つを同時に始め", "async: ラウンドごとに 3 つの子タスク", "圧縮なし(Accept-Encoding: identity)",
                "gzip あり(Accept-Encoding: gzip)", "時間の使われ方", "マシン: ", "指標", "gzip では通信路のバイトが",
                "スレッドでバイトが減ったわけではなく", "自前のスレッドなしで",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
        }
    }

    func testTheCancelReportIsJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // a cancelled run: the slow tier
        // --lang ja only: the locale is asked for in the tests above; each cancelled run takes seconds.
        for (arguments, locale) in ways.prefix(1) {
            let output = try lesson04(
                ["--latency", "0.05", "--bandwidth", "40000", "--cancel-after", "0.1", "--control-seconds", "0.1"]
                    + arguments, locale: locale
            ).stdout
            for japanese in ["0.1 秒でキャンセル", "キャンセル後: ", "キャンセル: no-thread は"] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
        }
    }

    /// One variant at a time: the takeaway has its own sentences then.
    func testOneVariantSpeaksJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // a run per variant: the slow tier
        var outputs = ""
        for variant in ["threaded", "async"] {
            let output = try lesson04(short + [] + ["--variant", variant, "--lang", "ja"]).stdout
            XCTAssertEqual(EnglishSentences.lines(in: output), [], variant)
            outputs += output
        }
        for japanese in ["3 つの API のパースがすべて終わったのは、圧縮なしの", "自前のスレッドはありません"] {
            XCTAssertTrue(outputs.contains(japanese), "no \"\(japanese)\" in\n\(outputs)")
        }
    }

    func testBadFlagsAreExplainedInJapanese() throws {
        for (flags, japanese) in [
            (["--latency", "-1"], "--latency は 0 から 60 秒の間で指定してください"),
            (["--timeout", "0"], "--timeout は 0.1 から 300 秒の間で指定してください"),
            (["--server", "ftp://x"], "--server には http://127.0.0.1:8080 のような"),
            (["--cancel-after", "301"], "--cancel-after は 0 から 300 秒の間で指定してください"),
        ] {
            for (arguments, locale) in ways {
                let outcome = try lesson04(flags + arguments, locale: locale, status: 64)
                XCTAssertTrue(outcome.stderr.contains(japanese), "\(flags) \(locale): \(outcome.stderr)")
            }
        }
    }

    func testHelpIsJapanese() throws {
        for (arguments, locale) in ways {
            // ArgumentParser wraps long lines at spaces: compare with every run of white space as one space.
            let help = try lesson04(["--help"] + arguments, locale: locale).stdout.split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            for japanese in [
                "通信路の gzip: 3 つの XML API を圧縮なしと圧縮ありで取得し", "元になった記事: 「iPhone の NSURLRequest で gzip 使ってみた」",
                "どのバリアントも 3 つの XML API を遅い回線で 2 回取得します", "実行するバリアント: no-thread", "キャンセルをタップします",
            ] {
                XCTAssertTrue(help.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(help)")
            }
        }
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish("lesson04", short + ["--json"], takeawayStartsWith: "gzip sent")
    }

    /// A broken answer is explained in Japanese: the variant, the API, the line and why.
    func testAMalformedAnswerIsExplainedInJapanese() throws {
        let outcome = try lesson04(
            short + ["--fault", "malformed", "--timeout", "2", "--variant", "threaded", "--lang", "ja"], status: 1)
        for japanese in ["threaded バリアントが失敗しました", "の XML が", "行目で壊れています", "閉じないまま文書が終わっています"] {
            XCTAssertTrue(outcome.stderr.contains(japanese), "no \"\(japanese)\" in\n\(outcome.stderr)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: outcome.stderr), [], outcome.stderr)
    }
}
