import WorkshopCore

/// The human part of a run: the three articles' screens, laid out and drawn (parts 1 to 4).
public struct LayoutTour {
    let width: Int
    /// Whether part 4 also prints each outline as an SVG path.
    let svg: Bool

    /// Parts 1 to 4 as the terminal shows them. Their constraints are fixed, so a layout error
    /// here would be a bug in the solver: it is shown in place of the part, like part 2's.
    public static func text(width: Int, svg: Bool) -> String {
        let tour = LayoutTour(width: width, svg: svg)
        let parts = [tour.scrollView, tour.contradiction, tour.articleCells, tour.roundedCorners]
        var lines: [String] = []
        for part in parts {
            do { lines += try part() } catch { lines.append("    error: \(error)") }
        }
        return lines.joined(separator: "\n")
    }

    private func indent(_ lines: [String]) -> [String] { lines.map { "    " + $0 } }

    /// 1. The first article, both ways.
    func scrollView() throws -> [String] {
        var lines = ["1. A word-wrapping label in a scroll view that fills a \(width)-column window"]
        for pinning in ScrollViewDemo.Pinning.allCases {
            let demo = ScrollViewDemo(pinning: pinning, columns: width)
            let openings = try demo.layout.solve()
            lines += ["", "  label pinned \(pinning.rawValue) to the scroll view:"] + indent(demo.draw())
            lines.append(
                "    label frame \(demo.label.frame), \(demo.label.lines.count) line(s); scroll content \(format(demo.scroll.contentSize.width)) x \(format(demo.scroll.contentSize.height))"
            )
            lines += openings.map { "    open: \($0)" }
        }
        return lines
    }

    /// 2. What a contradiction looks like: an error naming the constraints, not a crash.
    func contradiction() -> [String] {
        let demo = ScrollViewDemo(pinning: .width, columns: width)
        var layout = demo.layout
        layout.constraints.append(Constraint(demo.label, .width, equalTo: nil, constant: 10))
        let outcome: String
        do {
            try layout.solve()
            outcome = "(no error?)"
        } catch {
            outcome = "error: \(error)"
        }
        return ["", "2. The same, plus label.width == 10:", "    " + outcome]
    }

    /// 3. The second article's cells: content (row + 1) x 5 with 10-point margins.
    func articleCells() throws -> [String] {
        let cell = SizingCell.articleCell()
        let heights = try (0..<6).map { try cell.height(forArticleRow: $0) }
        return [
            "",
            "3. The article's cells, measured with one sizing cell: rows 0-5 are "
                + heights.map(format).joined(separator: ", ") + " points tall ((row + 1) x 5 + 20)",
        ] + cell.openings.map { "    open: \($0)" }
    }

    /// 4. The third article: outlines before and after layout.
    func roundedCorners() throws -> [String] {
        let demo = RoundedCornersDemo()
        let before = demo.outlines()
        var lines = [
            "", "4. Rounding some corners (radius \(format(demo.radius)), clamped to half the shorter side)",
            "  asked before layout: frames are \(demo.boxes[0].view.frame), so every outline is empty "
                + "(\(before.filter(\.isEmpty).count) of \(before.count)): the mask would hide the views",
        ]
        try demo.layout.solve()
        lines += ["  asked after layout:"] + indent(demo.draw())
        if svg {
            for (box, outline) in zip(demo.boxes, demo.outlines()) {
                lines.append("  \(box.name): <path d=\"\(outline.svgPath)\"/>")
            }
        }
        return lines
    }
}
