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
}
