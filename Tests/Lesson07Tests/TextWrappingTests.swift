import Testing
import WorkshopCore

@testable import Lesson07Kit

@Suite struct TextWrappingTests {
    let poem = ScrollViewDemo.poem  // 秋の田の(8) かりほの庵の(12) 苫をあらみ(10) 我が衣手は(10) 露にぬれつつ(12)

    @Test func thePoemIsFiftySixCellsOnOneLine() {
        #expect(terminalWidth(poem) == 56)
        #expect(TextWrapping.oneLineWidth(poem) == 56)
    }

    @Test(arguments: [
        (56, ["秋の田の かりほの庵の 苫をあらみ 我が衣手は 露にぬれつつ"]),
        (38, ["秋の田の かりほの庵の 苫をあらみ", "我が衣手は 露にぬれつつ"]),
        (22, ["秋の田の かりほの庵の", "苫をあらみ 我が衣手は", "露にぬれつつ"]),
        (20, ["秋の田の", "かりほの庵の", "苫をあらみ", "我が衣手は", "露にぬれつつ"]),
        // "かりほの庵の" and "露にぬれつつ" are 12 cells: longer than the line, so they are cut.
        (10, ["秋の田の", "かりほの庵", "の", "苫をあらみ", "我が衣手は", "露にぬれつ", "つ"]),
    ])
    func wordWrappingAtKnownWidths(width: Int, lines: [String]) {
        #expect(TextWrapping.wrap(poem, width: width, mode: .word) == lines)
    }

    @Test(arguments: [
        (38, ["秋の田の かりほの庵の 苫をあらみ 我が", "衣手は 露にぬれつつ"]),
        (22, ["秋の田の かりほの庵の ", "苫をあらみ 我が衣手は ", "露にぬれつつ"]),
        (9, ["秋の田の ", "かりほの", "庵の 苫を", "あらみ 我", "が衣手は ", "露にぬれ", "つつ"]),
    ])
    func characterWrappingAtKnownWidths(width: Int, lines: [String]) {
        #expect(TextWrapping.wrap(poem, width: width, mode: .character) == lines)
    }

    @Test func wideCharactersNeverSplitAndNothingIsLost() {
        let mixed = poem + " and some ASCII words, then 全角　スペース too"
        for width in 2...70 {
            for mode in [WrapMode.word, .character] {
                let lines = TextWrapping.wrap(mixed, width: width, mode: mode)
                for line in lines {
                    #expect(terminalWidth(line) <= width, "\(mode) at \(width): \(line)")
                }
                if mode == .character {
                    #expect(lines.joined() == mixed)
                } else {
                    // Only the spaces where lines break are dropped.
                    #expect(lines.joined().filter { $0 != " " } == mixed.filter { $0 != " " })
                }
            }
        }
        // A wide character does not fit in one cell: it gets a line of its own, never half a cell.
        #expect(TextWrapping.wrap("秋の", width: 1, mode: .character) == ["秋", "の"])
        #expect(TextWrapping.wrap("ab秋", width: 3, mode: .character) == ["ab", "秋"])
    }

    @Test func newlinesAlwaysBreak() {
        #expect(TextWrapping.wrap("ab\ncd", width: 10, mode: .word) == ["ab", "cd"])
        #expect(TextWrapping.oneLineWidth("abc\n秋の田の") == 8)
    }
}
