import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 02's human output is Japanese (the run, the cancel
/// report, the flags' errors and `--help`), its `--json` is not.
final class Lesson02JapaneseTests: XCTestCase {
    let short = ["--items", "30", "--latency", "0.02", "--bandwidth", "20000", "--control-seconds", "0.1"]
    let ways: [(arguments: [String], locale: [String: String])] = [
        (["--lang", "ja"], [:]), ([], ["LANG": "ja_JP.UTF-8"]),
    ]

    func lesson02(_ arguments: [String], locale: [String: String] = [:], status: Int32 = 0) throws
        -> LessonBinary.Outcome
    {
        let outcome = try LessonBinary("lesson02").run(arguments, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson02 \(arguments) did not finish within 60 s")
        XCTAssertEqual(outcome.status, status, outcome.stderr)
        return outcome
    }

    /// Every variant's words, and no English sentence.
    let everything = [
        "レッスン 02: ランループのスレッド", "no-thread: フィード全体をメインスレッドでダウンロードし", "threaded: ネットワークスレッド。ずっと先に発火する待機用タイマー",
        "threaded-after-download: ネットワークスレッド", "spin-no-source: ネットワークスレッド。ソースが付いていないので",
        "spin-past-deadline: ネットワークスレッド。期限がもう過ぎているので", "async: 自前のスレッドはありません", "時間の使われ方",
        "マシン: ", "指標", "ランループのスレッドでは最初のアイテムが", "ダウンロードが終わってからパースすると", "ソースのないループは",
        "async(自前のスレッドなし): 最初のアイテムは",
    ]

    func assertJapanese(_ arguments: [String], locale: [String: String], _ expected: [String]) throws {
        let output = try lesson02(short + arguments, locale: locale).stdout
        for japanese in expected {
            XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: output), [], "\(locale) \(arguments)")
    }

    /// All five variants with --lang ja; the locale way runs the async variant alone here (five
    /// downloads of the feed are most of the time) and all five in the slow tier, below.
    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        try assertJapanese(ways[0].arguments, locale: ways[0].locale, everything)
        try assertJapanese(
            ways[1].arguments + ["--variant", "async"], locale: ways[1].locale,
            ["レッスン 02: ランループのスレッド", "async: 自前のスレッドはありません", "マシン: ", "指標"])
    }

    func testAJapaneseLocaleSpeaksJapaneseInEveryVariant() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // five variants again: the slow tier
        try assertJapanese(ways[1].arguments, locale: ways[1].locale, everything)
    }

    func testTheCancelReportIsJapanese() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // a cancelled run: the slow tier
        // --lang ja only: the locale is asked for in the tests above; each cancelled run takes seconds.
        for (arguments, locale) in ways.prefix(1) {
            let output = try lesson02(short + ["--no-compare", "--cancel-after", "0.1"] + arguments, locale: locale)
                .stdout
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
        for variant in ["threaded", "async", "no-thread"] {
            let output = try lesson02(short + ["--no-compare"] + ["--variant", variant, "--lang", "ja"]).stdout
            XCTAssertEqual(EnglishSentences.lines(in: output), [], variant)
            outputs += output
        }
        for japanese in ["比べるには、既定のとおり 3 つのバリアントをすべて実行してください", "async(自前のスレッドなし): 最初のアイテムは"] {
            XCTAssertTrue(outputs.contains(japanese), "no \"\(japanese)\" in\n\(outputs)")
        }
    }

    func testBadFlagsAreExplainedInJapanese() throws {
        for (flags, japanese) in [
            (["--items", "0"], "--items は 1 から 5000 の間で指定してください(指定値: 0)"),
            (["--latency", "-1"], "--latency は 0 から 60 秒の間で指定してください"),
            (["--bandwidth", "-5"], "--bandwidth には 0(無制限)か"),
        ] {
            for (arguments, locale) in ways {
                let outcome = try lesson02(flags + arguments, locale: locale, status: 64)
                XCTAssertTrue(outcome.stderr.contains(japanese), "\(flags) \(locale): \(outcome.stderr)")
            }
        }
    }

    func testHelpIsJapanese() throws {
        for (arguments, locale) in ways {
            // ArgumentParser wraps long lines at spaces: compare with every run of white space as one space.
            let help = try lesson02(["--help"] + arguments, locale: locale).stdout.split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            for japanese in [
                "ランループのスレッド: ニュースフィードを", "元になった記事: 「別スレッドで NSURLConnection を使うときのメモ」", "フィードのアイテム数です",
                "比較のため空回りする 2 つのループ", "実行するバリアント: no-thread", "模擬回線の帯域",
            ] {
                XCTAssertTrue(help.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(help)")
            }
        }
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        // The three variants without the comparison loops: the document's shape is the same, in a third of the time.
        try assertJSONStaysEnglish(
            "lesson02", short + ["--json", "--no-compare"], takeawayStartsWith: "The first item was on screen after")
    }
}
