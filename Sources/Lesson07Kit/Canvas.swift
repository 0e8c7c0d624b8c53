import WorkshopCore

/// A grid of terminal cells to draw a laid-out screen into. A wide character takes two
/// cells; it is drawn whole or not at all, never cut in half at a clipping edge.
struct Canvas {
    private var cells: [[String]]
    let columns: Int
    let rows: Int

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Writes `text` from (column, row), showing only what falls inside `clip`.
    mutating func write(_ text: String, column: Int, row: Int, clip: Rect? = nil) {
        let clip = clip ?? Rect(x: 0, y: 0, width: Double(columns), height: Double(rows))
        guard Double(row) >= clip.minY, Double(row) < clip.maxY, row >= 0, row < rows else { return }
        var x = column
        for character in text {
            let width = terminalWidth(String(character))
            let fits = Double(x) >= clip.minX && Double(x + width) <= clip.maxX && x >= 0 && x + width <= columns
            if fits {
                cells[row][x] = String(character)
                // The second cell of a wide character holds nothing: the first one covers it.
                for extra in 1..<max(1, width) { cells[row][x + extra] = "" }
            }
            x += width
        }
    }

    /// A box along the edges of `rect` (whole cells), with an optional caption in its bottom edge.
    mutating func box(_ rect: Rect, caption: String = "") {
        let outline = RoundedOutline(rect: rect, corners: [], radius: 0)
        for (offset, line) in outline.terminalBox().enumerated() {
            write(line, column: Int(rect.minX), row: Int(rect.minY) + offset)
        }
        if !caption.isEmpty {
            write(
                " " + caption + " ", column: Int(rect.minX) + 2, row: Int(rect.maxY) - 1,
                clip: Rect(x: rect.minX + 1, y: rect.minY, width: rect.width - 2, height: rect.height))
        }
    }

    var lines: [String] { cells.map { $0.joined() } }
}
