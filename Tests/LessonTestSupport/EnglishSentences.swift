import Foundation
import XCTest

/// What the Japanese tests count: a program speaking Japanese prints no English sentence.
public enum EnglishSentences {
    /// The lines that hold an English sentence: three or more words of ASCII letters in a row,
    /// separated by single spaces (a word may end in "," or "."; a word with other punctuation,
    /// like "(no" or "icons:", ends the run). Metric and variant names, numbers with units
    /// ("0.02 s", "50000 B/s"), URLs, flag values ("down 8, up 8") and the timeline's lane and
    /// event names ("awaiting (no thread)", "reload: 4 rows") have no such three.
    public static func lines(in output: String) -> [String] {
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

/// `--json` is an API: asked for in Japanese (`--lang ja`, or `LANG=ja_JP.UTF-8`), a lesson's
/// document keeps the English run's keys, variants, parameters and metric names, and its takeaway
/// stays English. Runs `program` three times with `arguments` (which must include `--json`).
public func assertJSONStaysEnglish(
    _ program: String, _ arguments: [String], takeawayStartsWith prefix: String,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    func document(_ extra: [String], locale: [String: String] = [:]) throws -> LessonDocument {
        let outcome = try LessonBinary(program).run(arguments + extra, timeout: 60, locale: locale)
        XCTAssertFalse(outcome.timedOut, "\(program) did not finish within 60 s", file: file, line: line)
        XCTAssertEqual(outcome.status, 0, outcome.stderr, file: file, line: line)
        return try XCTUnwrap(outcome.document, "\(program): no JSON document", file: file, line: line)
    }
    let english = try document([])
    for asked in [try document(["--lang", "ja"]), try document([], locale: ["LANG": "ja_JP.UTF-8"])] {
        XCTAssertEqual(asked.object.keys.sorted(), english.object.keys.sorted(), file: file, line: line)
        XCTAssertEqual(asked.variantNames, english.variantNames, file: file, line: line)
        XCTAssertEqual(asked.parameters.keys.sorted(), english.parameters.keys.sorted(), file: file, line: line)
        for name in english.variantNames {
            XCTAssertEqual(
                asked.metrics(name).keys.sorted(), english.metrics(name).keys.sorted(), name, file: file, line: line)
        }
        let takeaway = asked.object["takeaway"] as? String ?? ""
        XCTAssertTrue(takeaway.hasPrefix(prefix), takeaway, file: file, line: line)
    }
}
