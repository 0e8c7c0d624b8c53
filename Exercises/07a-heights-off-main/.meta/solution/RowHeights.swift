// Exercise 07a: row heights off main: an estimate at once, the rows on screen measured first, then the rest.
// Check it: swift run workshop check 07a
import ExerciseChecks

/// The row heights of one table, as its view controller keeps them. The table asks
/// `height(forRow:)` for any row at any time and must get an answer at once; `measureRows()`
/// finds each row's exact height with a sizing cell and tells the table (`reloadRows`), which
/// then asks again. It belongs to the main actor, like the table and the view controller.
@MainActor
public final class RowHeights {
    private let table: HeightsTable
    /// Exact heights by row; a row not in it is not measured yet. Only the main actor touches
    /// it: the measuring tasks hand their heights back instead of writing here.
    private var measured: [Int: Double] = [:]
    /// Rows measured in one child task: few enough that each batch reaches the screen soon.
    private nonisolated static let batchSize = 8

    public init(table: HeightsTable) {
        self.table = table
    }

    /// The height the table uses for `row` now: the exact one once measured, else the estimate.
    /// Never measures: the table asks for every row, and a question must not wait for layout.
    public func height(forRow row: Int) -> Double {
        measured[row] ?? table.estimatedHeight
    }

    /// Measures every row and hands each exact height to the table. Runs in a task on the main
    /// actor; the screen closing cancels that task.
    public func measureRows() async {
        let table = self.table
        await withTaskGroup(of: Batch?.self) { group in
            var batches = Self.batches(of: table).makeIterator()
            // Called on the main actor; the closure it adds runs as a child task on Swift's
            // task pool, off the main thread. One batch at a time: the visible rows' batch is
            // done before any other row starts.
            func measureNext() {
                guard let rows = batches.next() else { return }
                group.addTask { Self.measure(rows, in: table) }
            }
            measureNext()
            // Back on the main actor after each batch.
            while let next = await group.next() {
                // After the await, before the reload: a batch finished just after a cancel is dropped.
                guard let batch = next, !Task.isCancelled else { return }
                measureNext()  // first, so the next batch is measured while main reloads
                for (row, height) in zip(batch.rows, batch.heights) { measured[row] = height }
                table.reloadRows(batch.rows)
            }
        }
    }

    /// Rows and the heights measured for them, in the same order.
    private struct Batch: Sendable {
        var rows: [Int]
        var heights: [Double]
    }

    /// The rows on screen as the first batch, then every other row from the top.
    private nonisolated static func batches(of table: HeightsTable) -> [[Int]] {
        let others = table.texts.indices.filter { !table.visibleRows.contains($0) }
        let rest = stride(from: 0, to: others.count, by: batchSize).map {
            Array(others[$0..<min(others.count, $0 + batchSize)])
        }
        return [Array(table.visibleRows)] + rest
    }

    /// Measures `rows` with a cell of this task's own (a sizing cell is never shared). Nil when
    /// the task is cancelled: it looks before each row, so a cancel stops it after one row at most.
    private nonisolated static func measure(_ rows: [Int], in table: HeightsTable) -> Batch? {
        let cell = table.makeSizingCell()
        var heights: [Double] = []
        for row in rows {
            if Task.isCancelled { return nil }
            heights.append(cell.height(forText: table.texts[row]))
        }
        return Batch(rows: rows, heights: heights)
    }
}
