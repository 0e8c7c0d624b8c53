import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--lang ja` and a Japanese locale: lesson 06's human output is Japanese, its `--json` is not.
final class Lesson06JapaneseTests: XCTestCase {
    let short = ["--rows", "500", "--control-seconds", "0.1"]

    func lesson06(_ arguments: [String], locale: [String: String] = [:]) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson06").run(arguments, timeout: 90, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson06 \(arguments) did not finish within 90 s")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return outcome
    }

    /// The output without what SQLite itself says: the statements typed at `sqlite>` and
    /// SQLite's own error messages ("Error: too many SQL variables") stay as sqlite3 prints them.
    func withoutSQLite(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("sqlite> ") }
            .map { line in line.range(of: "Error: ").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    func testLangJaAndAJapaneseLocaleSpeakJapanese() throws {
        for (arguments, locale) in [(short + ["--lang", "ja"], [:]), (short, ["LANG": "ja_JP.UTF-8"])] {
            let output = try lesson06(arguments, locale: locale).stdout
            for japanese in [
                "レッスン 06: SQLite のアップサート", "== 1. 記事のセッションを実際のファイルで再現", "-- 3. 既にあるキー: ステートメント全体が失敗し",
                "== 2. 行 100 への同じ変更を 2 通りで行う", "  返信 2 件 -> 0 件(ON DELETE CASCADE で削除された)",
                "読み手が覚えていた rowid で見つかる行: なし", "== 3. 500 の制限、当時といま", "compound SELECT の上限は 500 項",
                "成功(SQLite 3.8.8 から VALUES はこの制限の対象外)", "== 4. 500 行(10 行に 1 行は既存)を 4 通りで保存する",
                "1 行ごとにコミット: 500 行まで", "データベースのファイルは", "no-thread: どの戦略もメインスレッドで実行します",
                "threaded: どの戦略も writer-queue で実行します", "async: どの戦略も書き込み担当のアクターで実行し",
                "プレースホルダ: 500 行を 4 通りで保存しています...", "複数行のバッチ: 500 行を", "時間の使われ方", "指標",
                "保存を速くしたのはバッチ化です", "Screen の最大フリーズ: no-thread", "書き込み担当のアクターは、自前のキューなしで",
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(EnglishSentences.lines(in: withoutSQLite(output)), [], "\(locale) \(arguments)")
        }
    }

    func testFullAndOneVariantSpeakJapanese() throws {
        let output = try lesson06(["--rows", "100", "--full", "--variant", "threaded", "--lang", "ja"]).stdout
        for japanese in ["1 行ごとにコミット: 100 行。", "比べるには 3 つのバリアントをすべて実行してください"] {
            XCTAssertTrue(output.contains(japanese), "no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: withoutSQLite(output)), [])
    }

    func testACancelIsReportedInJapanese() throws {
        let output = try lesson06(["--rows", "5000", "--variant", "threaded", "--cancel-after", "0.05", "--lang", "ja"])
            .stdout
        for japanese in ["0.05 秒でキャンセル、", "キャンセル後: ", "キャンセル: threaded は"] {
            XCTAssertTrue(output.contains(japanese), "no \"\(japanese)\" in\n\(output)")
        }
        XCTAssertEqual(EnglishSentences.lines(in: withoutSQLite(output)), [])
    }

    func testJSONStaysEnglish() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)  // three whole runs: the slow tier
        try assertJSONStaysEnglish(
            "lesson06", short + ["--json"], takeawayStartsWith: "Batching is what made the save fast")
    }

    func testHelpAndFlagErrorsInJapanese() throws {
        let help = try lesson06(["--help", "--lang", "ja"]).stdout
        for japanese in [
            "SQLite のアップサート: 記事の sqlite3 のセッションを再現し", "元になった記事", "一括保存でアップサートする行数",
            "「1 行ごとにコミット」も全行で実行します", "複数行のバッチで 1 トランザクションに入れる行数",
            "1 ステートメントにバインドできる値の上限を下げます", "遅い端末のストレージを再現します",
        ] {
            XCTAssertTrue(help.contains(japanese), "--help --lang ja: no \"\(japanese)\" in\n\(help)")
        }
        let english = try lesson06(["--help"]).stdout
        XCTAssertTrue(english.contains("SQLite upsert: the article's sqlite3 session replayed"), english)
        for (arguments, message) in [
            (["--rows", "0"], "--rows は 1 から 1000000 の間で指定してください(指定値: 0)"),
            (["--commit-latency", "5"], "--commit-latency は 0 から 1 秒の間で指定してください(指定値: 5.0)"),
            (["--variable-limit", "2"], "--variable-limit は 1 行分の値の数 3 以上で指定してください(指定値: 2)"),
        ] {
            let refused = try LessonBinary("lesson06").run(arguments + ["--lang", "ja"], timeout: 60)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertTrue(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }
}
