/// Columns lined up for a terminal: the first column left-aligned, the others right-aligned
/// (numbers), widths measured in terminal cells so Japanese text lines up too.
public struct TextTable: Sendable {
    public var header: [String]
    public var rows: [[String]]
    /// Columns to align left besides the first (text rather than numbers).
    public var leftAligned: Set<Int>

    public init(header: [String], rows: [[String]], leftAligned: Set<Int> = [0]) {
        self.header = header
        self.rows = rows
        self.leftAligned = leftAligned
    }

    public var text: String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            all.map { column < $0.count ? terminalWidth($0[column]) : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - terminalWidth(cell))
                return leftAligned.contains(column) ? cell + pad : pad + cell
            }.joined(separator: "   ").trimmingTrailingSpaces()
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 3 * max(0, widths.count - 1))
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
