import ExerciseChecks

actor RowMeasurer {
    private let cell: RowSizingCell
    init(table: HeightsTable) { cell = table.makeSizingCell() }
    func height(forText text: String) -> Double { cell.height(forText: text) }
}

@MainActor
public final class RowHeights {
    private let table: HeightsTable
    private var measured: [Int: Double] = [:]

    public init(table: HeightsTable) { self.table = table }

    public func height(forRow row: Int) -> Double { measured[row] ?? table.estimatedHeight }

    public func measureRows() async {
        let measurer = RowMeasurer(table: table)
        let visible = Array(table.visibleRows)
        for row in visible + table.texts.indices.filter({ !visible.contains($0) }) {
            guard !Task.isCancelled else { return }
            let height = await measurer.height(forText: table.texts[row])
            guard !Task.isCancelled else { return }
            measured[row] = height
            table.reloadRows([row])
        }
    }
}
