import ExerciseChecks
import Lesson07Kit
import WorkshopCore

/// The checks of exercise 07 (Exercises/07-line-breaks): Japanese line-break rules.
public enum Exercise07Checks {
    public typealias Wrap = (String, Int) -> [String]

    /// The marks the checks insist on (a learner's own list may be longer, never shorter).
    public static let mustNotStartLine: [Character] = ["、", "。", "」", "』", "）", "！", "？"]

    /// Texts with closing marks in awkward places, and one without any.
    public static let texts = [
        "秋の田の、かりほの庵の。苫をあらみ、我が衣手は、露にぬれつつ。",
        "「サクサク」と言った。「本当に？」と聞かれた。",
        "メインスレッドで描画する。重い処理は別スレッドへ（GCD）！",
    ]
    public static let plainText = "秋の田のかりほの庵の苫をあらみ我が衣手は露にぬれつつ"
    /// The article's poem with punctuation at 8 cells, as the rule wraps it.
    static let poem = "秋の田の、かりほの庵の。"
    static let poemLines = ["秋の田", "の、かり", "ほの庵", "の。"]
    /// The widths at which text without closing marks must wrap as plain character wrapping does.
    static let plainWidths = [6, 8, 11, 20]

    // The checks, in the order they report: each declared once, in both languages.
    static let noBadStart = Check(
        "no line starts with 、。」』）！？", ja: "行頭に 、。」』）！？ が来ない",
        wanted: "every line after the first starts with a character that may start a line",
        ja: "2 行目以降のどの行も、行頭に置いてよい文字で始まる", hint: 1)
    static let articlePoem = Check(
        "the article's poem with punctuation, at 8 cells", ja: "記事の歌（句読点付き）を 8 セル幅で折り返す",
        wanted: "\(poemLines)", ja: "\(poemLines)", hint: 2)
    static let withinWidth = Check(
        "no line is wider than the width", ja: "幅を超える行がない",
        wanted: "every line within the width (wide characters count 2)", ja: "どの行も幅に収まる（全角文字は 2 と数える）", hint: 3)
    static let nothingLost = Check(
        "no character lost or moved", ja: "文字が消えたり入れ替わったりしない",
        wanted: "the lines joined give back the text", ja: "行をつなげると元のテキストに戻る", hint: 3)
    static let fillsPlainText = Check(
        "text without closing marks fills every line", ja: "閉じ括弧や句読点のないテキストは、どの行も幅いっぱいに詰める",
        wanted: "the same lines as plain character wrapping at widths \(plainWidths)",
        ja: "幅 \(plainWidths) で、規則なしに文字単位で折り返したときと同じ行になる", hint: 4)
    public static let all = [noBadStart, articlePoem, withinWidth, nothingLost, fillsPlainText]

    /// Runs every check against `wrap`.
    public static func run(_ wrap: Wrap) -> [CheckResult] {
        var badStarts: [String] = []
        var tooWide: [String] = []
        var lost: [String] = []
        for text in texts {
            for width in 6...30 {
                let lines = wrap(text, width)
                for line in lines.dropFirst() where line.first.map(mustNotStartLine.contains) ?? false {
                    if badStarts.count < 3 {
                        badStarts.append(localized(format: "width %1$d: \"%2$@\"", ja: "幅 %1$d:「%2$@」", width, line))
                    }
                }
                for line in lines where terminalWidth(line) > width {
                    if tooWide.count < 3 {
                        tooWide.append(
                            localized(
                                format: "width %1$d: \"%2$@\" is %3$d cells", ja: "幅 %1$d:「%2$@」が %3$d セル", width, line,
                                terminalWidth(line)))
                    }
                }
                if lines.joined() != text && lost.count < 3 {
                    lost.append(localized(format: "width %1$d: %2$@", ja: "幅 %1$d: %2$@", width, "\(lines)"))
                }
            }
        }
        let known = wrap(poem, 8)
        // Plain character wrapping (no rules), lesson 07's: what text without closing marks must give.
        let overEager = plainWidths.filter { wrap(plainText, $0) != TextWrapping.wrapCharacters(plainText, width: $0) }
        return [
            noBadStart.result(
                badStarts.isEmpty,
                got: badStarts.isEmpty ? localized("none does", ja: "そういう行はありません") : badStarts.joined(separator: "; ")),
            articlePoem.result(known == poemLines, got: "\(known)"),
            withinWidth.result(
                tooWide.isEmpty,
                got: tooWide.isEmpty ? localized("all fit", ja: "すべて収まっています") : tooWide.joined(separator: "; ")),
            nothingLost.result(
                lost.isEmpty, got: lost.isEmpty ? localized("they do", ja: "そのとおりです") : lost.joined(separator: "; ")),
            fillsPlainText.result(
                overEager.isEmpty,
                got: overEager.isEmpty
                    ? localized("the same", ja: "同じです")
                    : localized(format: "different at widths %@", ja: "幅 %@ で違います", "\(overEager)")),
        ]
    }
}
