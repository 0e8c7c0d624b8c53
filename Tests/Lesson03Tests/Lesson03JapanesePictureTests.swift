import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// `--svg` and `--html` from a Japanese run: the picture's and the page's words are Japanese
/// (lane, variant and metric names stay as printed: they are identifiers), and both say so in
/// their `lang` attribute. An English run draws them as before.
enum JapanesePictures {
    static let short = ["--rows", "4", "--latency", "0.02", "--control-seconds", "0.1"]

    /// Runs lesson03 with `--svg` and `--html` into a scratch folder; returns stdout, the SVG and the page.
    static func pictures(_ arguments: [String], locale: [String: String] = [:]) throws -> (
        stdout: String, svg: String, html: String
    ) {
        let folder = try ScratchFolder("l03-ja")
        defer { folder.tearDown() }
        let svg = folder.file("run.svg")
        let html = folder.file("run.html")
        let all = short + arguments + ["--svg", svg, "--html", html]
        let outcome = try LessonBinary("lesson03").run(all, timeout: 60, locale: locale)
        try #require(!outcome.timedOut, "lesson03 \(all) did not finish within 60 s")
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return (
            outcome.stdout, try String(contentsOfFile: svg, encoding: .utf8),
            try String(contentsOfFile: html, encoding: .utf8)
        )
    }

    /// The text a reader sees: tags taken out (each one ends a line), entities put back.
    static func words(_ markup: String) -> String {
        markup.replacingOccurrences(of: "<[^>]*>", with: "\n", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func expectJapanese(_ arguments: [String], locale: [String: String]) throws {
        let (_, svg, html) = try pictures(arguments, locale: locale)
        #expect(xmlParseError(svg) == nil, "the Japanese SVG is not well-formed XML")
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" xml:lang=\"ja\""))
        #expect(html.contains("<html lang=\"ja\">"))
        for japanese in [
            "レッスン 03: GCD のキュー: タイムラインとアイコン", "メインスレッドのフリーズ", "取得", "完了", " 秒",
            "メインスレッドの最大フリーズは", "キャッシュでリクエストが",
        ] {
            #expect(svg.contains(japanese), "the picture lacks \"\(japanese)\"")
        }
        for japanese in ["<h1>レッスン 03: GCD のキュー: タイムラインとアイコン</h1>", "<th>指標</th>", "フリーズ "] {
            #expect(html.contains(japanese), "the page lacks \"\(japanese)\"")
        }
        for variant in ["no-thread", "threaded", "async"] {
            #expect(svg.contains(">\(variant)</text>"), "the variant names stay as printed")
        }
        #expect(EnglishSentences.lines(in: words(svg)) == [], "the picture")
        #expect(EnglishSentences.lines(in: words(html)) == [], "the page")
    }
}

@Suite struct Lesson03JapanesePictureTests {
    @Test func aJapaneseRunDrawsAJapanesePictureAndPage() throws {
        try JapanesePictures.expectJapanese(["--lang", "ja"], locale: [:])
    }

    @Test func anEnglishRunDrawsAsBefore() throws {
        let (_, svg, html) = try JapanesePictures.pictures([])
        #expect(!svg.contains("xml:lang"), "an English picture has no xml:lang, as before")
        #expect(svg.contains("font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""))
        #expect(html.contains("<html lang=\"en\">"))
        for english in [
            "Lesson 03: GCD queues: timeline and icons", "main thread frozen", ">fetch</text>", " s</text>",
        ] {
            #expect(svg.contains(english), "the English picture lacks \"\(english)\"")
        }
        #expect(html.contains("<th>metric</th>"))
        #expect(!(svg + html).contains("秒"), "no Japanese in an English run")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct Lesson03JapanesePictureSlowTests {
    /// The locale way: the slow tier (lesson 03's text run asks for it in the quick suite).
    @Test func aJapaneseLocaleDrawsAJapanesePictureAndPage() throws {
        try JapanesePictures.expectJapanese([], locale: ["LANG": "ja_JP.UTF-8"])
    }

    @Test func aCancelledJapaneseRunSaysItsCancelInJapanese() throws {
        // A third run with pictures: the slow tier.
        let (stdout, svg, html) = try JapanesePictures.pictures(["--lang", "ja", "--cancel-after", "0.05"])
        for output in [stdout, svg, html] {
            #expect(output.contains("キャンセル: no-thread は"), "\(output)")
        }
        #expect(stdout.contains("秒でキャンセル、"), "\(stdout)")
        #expect(EnglishSentences.lines(in: stdout) == [])
        #expect(EnglishSentences.lines(in: JapanesePictures.words(svg)) == [])
        #expect(EnglishSentences.lines(in: JapanesePictures.words(html)) == [])
    }
}
