import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// `--svg` and `--html` from a Japanese run: the picture's and the page's words are Japanese
/// (lane, variant and metric names stay as printed: they are identifiers), and both say so in
/// their `lang` attribute. An English run draws them as before.
///
/// What Lesson03JapanesePictureTests and Lesson03JapanesePictureSlowTests (the slow tier) share; no tests of its own.
class Lesson03JapanesePictureCase: XCTestCase {
    let short = ["--rows", "4", "--latency", "0.02", "--control-seconds", "0.1"]

    /// Runs lesson03 with `--svg` and `--html` into a scratch folder; returns stdout, the SVG and the page.
    func pictures(_ arguments: [String], locale: [String: String] = [:]) throws -> (
        stdout: String, svg: String, html: String
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("l03-ja-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("run.svg").path
        let html = folder.appendingPathComponent("run.html").path
        let all = short + arguments + ["--svg", svg, "--html", html]
        let outcome = try LessonBinary("lesson03").run(all, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "lesson03 \(all) did not finish within 60 s")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return (
            outcome.stdout, try String(contentsOfFile: svg, encoding: .utf8),
            try String(contentsOfFile: html, encoding: .utf8)
        )
    }

    /// The text a reader sees: tags taken out (each one ends a line), entities put back.
    func words(_ markup: String) -> String {
        markup.replacingOccurrences(of: "<[^>]*>", with: "\n", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    func assertJapanesePictures(_ arguments: [String], locale: [String: String]) throws {
        let (_, svg, html) = try pictures(arguments, locale: locale)
        XCTAssertNil(xmlParseError(svg), "\(locale): the Japanese SVG is not well-formed XML")
        XCTAssertTrue(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" xml:lang=\"ja\""), "\(locale)")
        XCTAssertTrue(html.contains("<html lang=\"ja\">"), "\(locale)")
        for japanese in [
            "レッスン 03: GCD のキュー: タイムラインとアイコン", "メインスレッドのフリーズ", "取得", "完了", " 秒",
            "メインスレッドの最大フリーズは", "キャッシュでリクエストが",
        ] {
            XCTAssertTrue(svg.contains(japanese), "\(locale): the picture lacks \"\(japanese)\"")
        }
        for japanese in ["<h1>レッスン 03: GCD のキュー: タイムラインとアイコン</h1>", "<th>指標</th>", "フリーズ "] {
            XCTAssertTrue(html.contains(japanese), "\(locale): the page lacks \"\(japanese)\"")
        }
        for variant in ["no-thread", "threaded", "async"] {
            XCTAssertTrue(svg.contains(">\(variant)</text>"), "the variant names stay as printed")
        }
        XCTAssertEqual(EnglishSentences.lines(in: words(svg)), [], "\(locale): the picture")
        XCTAssertEqual(EnglishSentences.lines(in: words(html)), [], "\(locale): the page")
    }
}

final class Lesson03JapanesePictureTests: Lesson03JapanesePictureCase {
    func testAJapaneseRunDrawsAJapanesePictureAndPage() throws {
        try assertJapanesePictures(["--lang", "ja"], locale: [:])
    }

    func testAnEnglishRunDrawsAsBefore() throws {
        let (_, svg, html) = try pictures([])
        XCTAssertFalse(svg.contains("xml:lang"), "an English picture has no xml:lang, as before")
        XCTAssertTrue(svg.contains("font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""))
        XCTAssertTrue(html.contains("<html lang=\"en\">"))
        for english in [
            "Lesson 03: GCD queues: timeline and icons", "main thread frozen", ">fetch</text>", " s</text>",
        ] {
            XCTAssertTrue(svg.contains(english), "the English picture lacks \"\(english)\"")
        }
        XCTAssertTrue(html.contains("<th>metric</th>"))
        XCTAssertFalse((svg + html).contains("秒"), "no Japanese in an English run")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03JapanesePictureSlowTests: Lesson03JapanesePictureCase {
    /// The locale way: the slow tier (lesson 03's text run asks for it in the quick suite).
    func testAJapaneseLocaleDrawsAJapanesePictureAndPage() throws {
        try assertJapanesePictures([], locale: ["LANG": "ja_JP.UTF-8"])
    }

    func testACancelledJapaneseRunSaysItsCancelInJapanese() throws {
        // A third run with pictures: the slow tier.
        let (stdout, svg, html) = try pictures(["--lang", "ja", "--cancel-after", "0.05"])
        for output in [stdout, svg, html] {
            XCTAssertTrue(output.contains("キャンセル: no-thread は"), output)
        }
        XCTAssertTrue(stdout.contains("秒でキャンセル、"), stdout)
        XCTAssertEqual(EnglishSentences.lines(in: stdout), [])
        XCTAssertEqual(EnglishSentences.lines(in: words(svg)), [])
        XCTAssertEqual(EnglishSentences.lines(in: words(html)), [])
    }
}
