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
            ] {
                XCTAssertTrue(output.contains(japanese), "\(locale) \(arguments): no \"\(japanese)\" in\n\(output)")
            }
            XCTAssertEqual(Self.englishSentences(in: output), [], "\(locale) \(arguments)")
        }
    }

    func testJSONStaysEnglish() throws {
        let english = try XCTUnwrap(try lesson03(short + ["--json"]).document)
        let japanese = try XCTUnwrap(try lesson03(short + ["--json", "--lang", "ja"]).document)
        let local = try XCTUnwrap(try lesson03(short + ["--json"], locale: ["LANG": "ja_JP.UTF-8"]).document)
        for document in [japanese, local] {
            XCTAssertEqual(document.object.keys.sorted(), english.object.keys.sorted())
            XCTAssertEqual(document.variantNames, english.variantNames)
            XCTAssertEqual(document.parameters.keys.sorted(), english.parameters.keys.sorted())
            for name in english.variantNames {
                XCTAssertEqual(document.metrics(name).keys.sorted(), english.metrics(name).keys.sorted(), name)
            }
            let takeaway = document.object["takeaway"] as? String ?? ""
            XCTAssertTrue(takeaway.hasPrefix("Queues did not make the network faster"), takeaway)
        }
    }

    /// The lines that hold an English sentence: three or more words of ASCII letters in a row,
    /// separated by single spaces (a word may end in "," or "."; a word with other punctuation,
    /// like "(no" or "icons:", ends the run). Metric and variant names, numbers with units
    /// ("0.02 s", "50000 B/s"), URLs, flag values ("down 8, up 8") and the timeline's lane and
    /// event names ("awaiting (no thread)", "reload: 4 rows") have no such three.
    static func englishSentences(in output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { line in
            var run = 0
            for token in line.split(separator: " ", omittingEmptySubsequences: false) {
                let word = token.hasSuffix(",") || token.hasSuffix(".") ? token.dropLast() : token[...]
                let isWord = word.count > 1 && word.allSatisfy { $0.isASCII && $0.isLetter }
                run = isWord ? run + 1 : 0
                if run >= 3 { return true }
            }
            return false
        }
    }
}
