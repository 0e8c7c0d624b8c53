// Exercise 07a: row heights off main: an estimate at once, the rows on screen measured first, then the rest.
// Check it: swift run workshop check 07a
import ExerciseChecks

/// The row heights of one table, as its view controller keeps them. The table asks
/// `height(forRow:)` for any row at any time and must get an answer at once; `measureRows()`
/// finds each row's exact height with a sizing cell and tells the table (`reloadRows`), which
/// then asks again. It belongs to the main actor, like the table and the view controller.
///
/// As shipped the heights are right, but every row is measured here, on the main thread, from
/// row 0 down: the table freezes until the last one, and the rows on screen wait behind all
/// the rows above them.
@MainActor
public final class RowHeights {
    private let table: HeightsTable
    /// Exact heights by row; a row not in it is not measured yet.
    private var measured: [Int: Double] = [:]

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
        let cell = table.makeSizingCell()
        // TODO(1): this function runs on the main actor, so every row is measured on the main
        // thread. Measure off main (a task group, an actor or a queue), each with its own cell.
        // TODO(2): rows in order from 0: the rows on screen (table.visibleRows) come last. Measure
        // them first, then the others.
        for row in table.texts.indices {
            let height = cell.height(forText: table.texts[row])
            // TODO(3): the heights must come back here, to the main actor, before they are stored.
            // TODO(4): a cancelled task measures no more rows and reloads nothing: look at
            // Task.isCancelled before each row you measure, and again before each reload.
            measured[row] = height
            table.reloadRows([row])
        }
    }
}
