import WorkshopCore

/// Which corners to round: any subset, as UIRectCorner's option set.
struct Corners: OptionSet, Hashable, Sendable {
    let rawValue: Int
    static let topLeft = Corners(rawValue: 1)
    static let topRight = Corners(rawValue: 2)
    static let bottomRight = Corners(rawValue: 4)
    static let bottomLeft = Corners(rawValue: 8)
    static let all: Corners = [.topLeft, .topRight, .bottomRight, .bottomLeft]
    // The article's four one-sided cases: swift-layout's roundRectTop, roundRectRight,
    // roundRectLeft and roundRectBottom.
    static let top: Corners = [.topLeft, .topRight]
    static let right: Corners = [.topRight, .bottomRight]
    static let left: Corners = [.topLeft, .bottomLeft]
    static let bottom: Corners = [.bottomLeft, .bottomRight]
    /// Every one of the 16 subsets.
    static let everySubset = (0..<16).map { Corners(rawValue: $0) }
}

/// The outline of a rect with some corners rounded: what UIBezierPath(roundedRect:
/// byRoundingCorners:cornerRadii:) builds for the mask layer in the third article.
///
/// It is computed from the view's frame *at the moment you ask*. Ask before layout and the
/// frame is `.zero`, so the outline is empty and the mask hides the whole view: that is why
/// the author had to call `layoutIfNeeded()` first.
struct RoundedOutline {
    enum Segment: Equatable {
        case line(to: Point)
        /// A quarter circle around `center`, ending at `to`.
        case arc(center: Point, radius: Double, to: Point)
    }

    let rect: Rect
    let corners: Corners
    /// The radius actually used: the one asked for, clamped to half the shorter side
    /// (two rounded corners on one side must not overlap).
    let radius: Double

    init(rect: Rect, corners: Corners, radius: Double) {
        self.rect = rect
        self.corners = corners
        self.radius = max(0, min(radius, min(rect.width, rect.height) / 2))
    }

    var isEmpty: Bool { rect.isEmpty }

    /// Where the outline starts, then each segment clockwise from the top-left corner.
    var start: Point { Point(x: rect.minX + r(.topLeft), y: rect.minY) }

    private func r(_ corner: Corners) -> Double { corners.contains(corner) ? radius : 0 }

    var segments: [Segment] {
        guard !isEmpty else { return [] }
        var path: [Segment] = []
        let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
        func corner(_ which: Corners, center: Point, end: Point) {
            if r(which) > 0 { path.append(.arc(center: center, radius: radius, to: end)) }
        }
        path.append(.line(to: Point(x: x1 - r(.topRight), y: y0)))
        corner(.topRight, center: Point(x: x1 - radius, y: y0 + radius), end: Point(x: x1, y: y0 + radius))
        path.append(.line(to: Point(x: x1, y: y1 - r(.bottomRight))))
        corner(.bottomRight, center: Point(x: x1 - radius, y: y1 - radius), end: Point(x: x1 - radius, y: y1))
        path.append(.line(to: Point(x: x0 + r(.bottomLeft), y: y1)))
        corner(.bottomLeft, center: Point(x: x0 + radius, y: y1 - radius), end: Point(x: x0, y: y1 - radius))
        path.append(.line(to: Point(x: x0, y: y0 + r(.topLeft))))
        corner(.topLeft, center: Point(x: x0 + radius, y: y0 + radius), end: start)
        return path
    }

    /// The outline as an SVG path's `d` attribute ("" when empty, as the mask before layout).
    var svgPath: String {
        guard !isEmpty else { return "" }
        var d = "M\(format(start.x)) \(format(start.y))"
        for segment in segments {
            switch segment {
            case .line(let to): d += " L\(format(to.x)) \(format(to.y))"
            case .arc(_, let radius, let to):
                d += " A\(format(radius)) \(format(radius)) 0 0 1 \(format(to.x)) \(format(to.y))"
            }
        }
        return d + " Z"
    }

    /// A whole SVG document showing the outline, for slides.
    var svgDocument: String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(format(rect.minX - 1)) \(format(rect.minY - 1)) \(format(rect.width + 2)) \(format(rect.height + 2))">
          <path d="\(svgPath)" fill="#e33" stroke="black"/>
        </svg>
        """
    }

    /// The outline in the terminal, one character per cell: square corners ┌┐└┘, rounded
    /// ones ╭╮╰╯. An empty outline draws nothing at all.
    func terminalBox(label: String = "") -> [String] {
        let columns = Int(rect.width.rounded())
        let rows = Int(rect.height.rounded())
        guard columns >= 2, rows >= 2 else { return [] }
        let glyph: (Corners, Character, Character) -> Character = { corner, square, round in
            corners.contains(corner) && radius > 0 ? round : square
        }
        let inner = columns - 2
        var lines = [
            String(glyph(.topLeft, "┌", "╭")) + String(repeating: "─", count: inner)
                + String(glyph(.topRight, "┐", "╮"))
        ]
        for row in 0..<(rows - 2) {
            let text = row == (rows - 2) / 2 ? truncate(label, toWidth: inner) : ""
            let centred = String(repeating: " ", count: (inner - terminalWidth(text)) / 2) + text
            lines.append("│" + centred + String(repeating: " ", count: inner - terminalWidth(centred)) + "│")
        }
        lines.append(
            String(glyph(.bottomLeft, "└", "╰")) + String(repeating: "─", count: inner)
                + String(glyph(.bottomRight, "┘", "╯")))
        return lines
    }
}
