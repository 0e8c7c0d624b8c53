import Foundation

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

    /// The same, but each line read only up to the first of `quoted` in it: from there on the
    /// line quotes words that are the same in every language (a row of labels, SQLite's own
    /// message), which no translation changes.
    public static func lines(in output: String, quoted: [String]) -> [String] {
        let read = output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            quoted.compactMap { line.range(of: $0)?.lowerBound }.min().map { String(line[..<$0]) } ?? String(line)
        }
        return lines(in: read.joined(separator: "\n"))
    }
}

/// `--json` is an API: asked for in Japanese (`--lang ja`, or `LANG=ja_JP.UTF-8`), a lesson's
/// document keeps the English run's keys, variants, parameters and metric names, and its takeaway
/// stays English (English sentences, not a Japanese character). Runs `program` three times with
/// `arguments` (which must include `--json`); returns what is wrong, in words (empty: nothing).
public func jsonStaysEnglishProblems(_ program: String, _ arguments: [String]) throws -> [String] {
    var problems: [String] = []
    func document(_ extra: [String], locale: [String: String] = [:]) throws -> LessonDocument? {
        let outcome = try LessonBinary(program).run(arguments + extra, timeout: 60, locale: locale)
        guard outcome.status == 0, let document = outcome.document else {
            problems.append("\(extra) \(locale): exit status \(outcome.status), no JSON document: \(outcome.stderr)")
            return nil
        }
        return document
    }
    guard let english = try document([]) else { return problems }
    for (extra, locale) in [(["--lang", "ja"], [:]), ([], ["LANG": "ja_JP.UTF-8"])] {
        guard let asked = try document(extra, locale: locale) else { continue }
        let way = "\(extra) \(locale)"
        if asked.object.keys.sorted() != english.object.keys.sorted() { problems.append("\(way): other keys") }
        if asked.variantNames != english.variantNames { problems.append("\(way): variants \(asked.variantNames)") }
        if asked.parameters.keys.sorted() != english.parameters.keys.sorted() {
            problems.append("\(way): parameters \(asked.parameters.keys.sorted())")
        }
        for name in english.variantNames where asked.metrics(name).keys.sorted() != english.metrics(name).keys.sorted()
        {
            problems.append("\(way): \(name)'s metric names differ")
        }
        let takeaway = asked.object["takeaway"] as? String ?? ""
        if EnglishSentences.lines(in: takeaway).isEmpty || takeaway.unicodeScalars.contains(where: \.isJapanese) {
            problems.append("\(way): the takeaway is not English: \(takeaway)")
        }
    }
    return problems
}

extension Unicode.Scalar {
    /// Hiragana, katakana, a CJK ideograph or Japanese punctuation.
    var isJapanese: Bool { (0x3000...0x30FF).contains(value) || (0x4E00...0x9FFF).contains(value) }
}
