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
            do { lines += try part() } catch { lines.append("    " + localized("error: %@", "\(error)")) }
        }
        return lines.joined(separator: "\n")
    }

    private func indent(_ lines: [String]) -> [String] { lines.map { "    " + $0 } }

    /// 1. The first article, both ways.
    func scrollView() throws -> [String] {
        var lines = [localized("1. A word-wrapping label in a scroll view that fills a %d-column window", width)]
        for pinning in ScrollViewDemo.Pinning.allCases {
            let demo = ScrollViewDemo(pinning: pinning, columns: width)
            let openings = try demo.layout.solve()
            lines +=
                ["", localized("  label pinned %@ to the scroll view:", localized(pinning.rawValue))]
                + indent(demo.draw())
            lines.append(
                localized(
                    "    label frame %@, %d line(s); scroll content %@ x %@", "\(demo.label.frame)",
                    demo.label.lines.count, format(demo.scroll.contentSize.width),
                    format(demo.scroll.contentSize.height)))
            lines += openings.map { localized("    open: %@", "\($0)") }
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
            outcome = localized("(no error?)")
        } catch {
            outcome = localized("error: %@", "\(error)")
        }
        return ["", localized("2. The same, plus label.width == 10:"), "    " + outcome]
    }

    /// 3. The second article's cells: content (row + 1) x 5 with 10-point margins. The content
    /// view's open height is the point of the part, not a failure: a line says so.
    func articleCells() throws -> [String] {
        let cell = SizingCell.articleCell()
        let heights = try (0..<6).map { try cell.height(forArticleRow: $0) }
        var lines = [
            "",
            localized(
                "3. The article's cells, measured with one sizing cell: rows 0-5 are %@ points tall ((row + 1) x 5 + 20)",
                heights.map(format).joined(separator: ", ")),
        ]
        lines += cell.openings.map { localized("    open: %@", "\($0)") }
        if cell.openings.contains(where: { $0.view == cell.contentView.name && $0.settledBy == .zero }) {
            lines.append(
                localized(
                    "    (not an error: as in the article, no constraint reaches the content view's bottom, so its height is open; the heights above are the base view's, which the constraints fix)"
                ))
        }
        return lines
    }

    /// 4. The third article: outlines before and after layout.
    func roundedCorners() throws -> [String] {
        let demo = RoundedCornersDemo()
        let before = demo.outlines()
        var lines = [
            "",
            localized("4. Rounding some corners (radius %@, clamped to half the shorter side)", format(demo.radius)),
            localized(
                "  asked before layout: frames are %@, so every outline is empty (%d of %d): the mask would hide the views",
                "\(demo.boxes[0].view.frame)", before.filter(\.isEmpty).count, before.count),
        ]
        try demo.layout.solve()
        lines += [localized("  asked after layout:")] + indent(demo.draw())
        if svg {
            for (box, outline) in zip(demo.boxes, demo.outlines()) {
                lines.append("  \(box.name): <path d=\"\(outline.svgPath)\"/>")
            }
        }
        return lines
    }
}
