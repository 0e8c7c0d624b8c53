/// The table's row heights: a measured height once a row has been through the sizing
/// cell, an estimate until then (UITableView's `estimatedRowHeight`). The table asks for
/// heights again and again (every row, to size its scroll bar, at every reload), so
/// measured heights are cached and each question answered from the cache is a hit.
@MainActor
final class HeightCache {
    let estimatedHeight: Double
    private var measured: [Double?]
    private(set) var hits = 0
    /// Questions answered with the estimate, because the row was not measured yet.
    private(set) var estimates = 0
    private(set) var measuredCount = 0

    init(rows: Int, estimatedHeight: Double) {
        self.estimatedHeight = estimatedHeight
        measured = Array(repeating: nil, count: rows)
    }

    var rowCount: Int { measured.count }
    var isComplete: Bool { measuredCount == measured.count }

    /// The height the table uses for `row` right now.
    func height(ofRow row: Int) -> Double {
        if let height = measured[row] {
            hits += 1
            return height
        }
        estimates += 1
        return estimatedHeight
    }

    func isMeasured(_ row: Int) -> Bool { measured[row] != nil }

    /// Stores heights measured for rows `start ..< start + heights.count`.
    func store(_ heights: [Double], from start: Int) {
        for (offset, height) in heights.enumerated() where measured[start + offset] == nil {
            measured[start + offset] = height
            measuredCount += 1
        }
    }

    /// Every measured height, in row order (nil where not measured): the result every variant shares.
    var all: [Double?] { measured }
}
