import Testing

@testable import Lesson07Kit

@Suite struct SizingCellTests {
    @Test func theArticleCellIsRowPlusOneTimesFivePlusTwenty() throws {
        let cell = SizingCell.articleCell()
        for row in 0..<50 {
            #expect(try cell.height(forArticleRow: row) == Double((row + 1) * 5 + 20), "row \(row)")
        }
        // The sizing cell is reused: asking for an earlier row again gives its height again.
        #expect(try cell.height(forArticleRow: 2) == 35)
        #expect(cell.content.frame == Rect(x: 152.5, y: 10, width: 15, height: 15), "centred in a 320-point cell")
        // The article's hole: nothing ties the content view's height to the base view.
        #expect(
            cell.openings == [
                Opening(view: "contentView", axis: .vertical, quantity: "height", settledBy: .zero, value: 0)
            ])
    }

    @Test func aTextCellIsItsLinesPlusTheMargins() throws {
        let cell = SizingCell.textCell(width: 24, lineHeight: 20)
        // The label is 24 - 2 - 2 = 20 cells wide: the poem takes five lines there.
        #expect(try cell.height(forText: ScrollViewDemo.poem) == 5 * 20 + 20)
        #expect(try cell.height(forText: "short") == 1 * 20 + 20)
        #expect(cell.content.frame.width == 20)
    }
}

@Suite struct RoundedCornerTests {
    let rect = Rect(x: 10, y: 20, width: 12, height: 6)

    @Test(arguments: Corners.everySubset)
    func everySubsetGivesItsOutline(corners: Corners) throws {
        let outline = RoundedOutline(rect: rect, corners: corners, radius: 2)
        let arcs = outline.segments.filter { if case .arc = $0 { true } else { false } }
        #expect(arcs.count == corners.rawValue.nonzeroBitCount)
        #expect(outline.svgPath.filter { $0 == "A" }.count == arcs.count)
        #expect(outline.svgPath.hasPrefix("M") && outline.svgPath.hasSuffix("Z"))
        // The outline is closed and stays on the rect's edges.
        let ends = outline.segments.map { segment -> Point in
            switch segment {
            case .line(let to), .arc(_, _, let to): to
            }
        }
        #expect(ends.last == outline.start)
        for point in ends {
            let onEdge = point.x == rect.minX || point.x == rect.maxX || point.y == rect.minY || point.y == rect.maxY
            #expect(onEdge, "\(point)")
        }
        // Each corner: the rounded glyph exactly where asked.
        let box = outline.terminalBox()
        let glyphs = [box.first!.first!, box.first!.last!, box.last!.last!, box.last!.first!]
        let expected: [(Corners, Character, Character)] = [
            (.topLeft, "┌", "╭"), (.topRight, "┐", "╮"),
            (.bottomRight, "┘", "╯"), (.bottomLeft, "└", "╰"),
        ]
        for (glyph, (corner, square, round)) in zip(glyphs, expected) {
            #expect(glyph == (corners.contains(corner) ? round : square))
        }
        #expect(box.count == 6 && box.allSatisfy { $0.count == 12 })
    }

    @Test func theRadiusIsClampedToHalfTheShorterSide() {
        #expect(RoundedOutline(rect: rect, corners: .all, radius: 100).radius == 3)
        #expect(RoundedOutline(rect: rect, corners: .all, radius: 2).radius == 2)
        #expect(RoundedOutline(rect: Rect(x: 0, y: 0, width: 4, height: 9), corners: .top, radius: 5).radius == 2)
        #expect(RoundedOutline(rect: rect, corners: .top, radius: -1).radius == 0)
        let pill = RoundedOutline(rect: rect, corners: .all, radius: 100)
        #expect(
            pill.svgPath
                == "M13 20 L19 20 A3 3 0 0 1 22 23 L22 23 A3 3 0 0 1 19 26 L13 26 A3 3 0 0 1 10 23 L10 23 A3 3 0 0 1 13 20 Z"
        )
    }

    @Test func beforeLayoutTheOutlineIsEmptyAfterLayoutItIsRight() throws {
        let demo = RoundedCornersDemo()
        #expect(
            demo.outlines().allSatisfy {
                $0.isEmpty && $0.svgPath.isEmpty && $0.segments.isEmpty && $0.terminalBox().isEmpty
            })
        try demo.layout.solve()
        let after = demo.outlines()
        #expect(after.allSatisfy { !$0.isEmpty })
        #expect(after.map(\.rect.minX) == [0, 14, 28, 42, 56])
        #expect(after[0].svgPath == "M2 0 L10 0 A2 2 0 0 1 12 2 L12 5 L0 5 L0 2 A2 2 0 0 1 2 0 Z")
        let drawing = demo.draw()
        // The article's four one-sided cases, then two opposite corners.
        #expect(
            drawing.first?.hasPrefix("╭──────────╮  ┌──────────╮  ╭──────────┐  ┌──────────┐  ╭──────────┐") == true)
        #expect(drawing.last?.hasPrefix("└──────────┘  └──────────╯  ╰──────────┘  ╰──────────╯  └──────────╯") == true)
    }
}
