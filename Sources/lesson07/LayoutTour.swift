import WorkshopCore

/// The human part of a run: the three articles' screens, laid out and drawn.
struct LayoutTour {
    let width: Int
    let svg: Bool

    func printAll() throws {
        try scrollView()
        contradiction()
        try articleCells()
        try roundedCorners()
    }

    private func indent(_ lines: [String]) -> String { lines.map { "    " + $0 }.joined(separator: "\n") }

    /// 1. The first article, both ways.
    func scrollView() throws {
        say("1. A word-wrapping label in a scroll view that fills a \(width)-column window")
        for pinning in ScrollViewDemo.Pinning.allCases {
            let demo = ScrollViewDemo(pinning: pinning, columns: width)
            let openings = try demo.layout.solve()
            say("\n  label pinned \(pinning.rawValue) to the scroll view:")
            say(indent(demo.draw()))
            say("    label frame \(demo.label.frame), \(demo.label.lines.count) line(s); scroll content \(format(demo.scroll.contentSize.width)) x \(format(demo.scroll.contentSize.height))")
            for opening in openings { say("    open: \(opening)") }
        }
    }

    /// 2. What a contradiction looks like: an error naming the constraints, not a crash.
    func contradiction() {
        let demo = ScrollViewDemo(pinning: .width, columns: width)
        var layout = demo.layout
        layout.constraints.append(Constraint(demo.label, .width, equalTo: nil, constant: 10))
        say("\n2. The same, plus label.width == 10:")
        do {
            try layout.solve()
            say("    (no error?)")
        } catch {
            say("    error: \(error)")
        }
    }

    /// 3. The second article's cells: content (row + 1) x 5 with 10-point margins.
    func articleCells() throws {
        let cell = SizingCell.articleCell()
        let heights = try (0..<6).map { try cell.height(forArticleRow: $0) }
        say("\n3. The article's cells, measured with one sizing cell: rows 0-5 are "
            + heights.map(format).joined(separator: ", ") + " points tall ((row + 1) x 5 + 20)")
        for opening in cell.openings { say("    open: \(opening)") }
    }

    /// 4. The third article: outlines before and after layout.
    func roundedCorners() throws {
        let demo = RoundedCornersDemo()
        say("\n4. Rounding some corners (radius \(format(demo.radius)), clamped to half the shorter side)")
        let before = demo.outlines()
        say("  asked before layout: frames are \(demo.boxes[0].view.frame), so every outline is empty "
            + "(\(before.filter(\.isEmpty).count) of \(before.count)): the mask would hide the views")
        try demo.layout.solve()
        say("  asked after layout:")
        say(indent(demo.draw()))
        if svg {
            for (box, outline) in zip(demo.boxes, demo.outlines()) {
                say("  \(box.name): <path d=\"\(outline.svgPath)\"/>")
            }
        }
    }
}
