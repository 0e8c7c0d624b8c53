// Exercise 07b: the measuring that came back to main, with Approachable Concurrency on.
// Check it: swift run workshop check 07b
import ExerciseChecks

/// Lesson 07's async variant, a chunk of rows at a time: the table's view controller, on the
/// main actor, awaits each chunk's heights and shows them before it asks for the next chunk.
///
/// The code was written for plain Swift 6 (6.0, or 6.2 and 6.3 as they are out of the box),
/// where an async function marked `nonisolated` runs on the task pool. It compiles here with no
/// warning and gives the right heights. But this package turns on Approachable Concurrency, as a
/// new Xcode 26 app project does: the upcoming features `NonisolatedNonsendingByDefault`
/// (SE-0461) and `InferIsolatedConformances` (SE-0470), which Swift 6.2 and 6.3 leave off unless
/// asked. Run the check with `--svg` and look at the lane each chunk was measured in.
@MainActor
public final class ChunkHeights {
    private let table: ChunkTable

    public init(table: ChunkTable) {
        self.table = table
    }

    /// Measures every chunk of rows and shows each chunk's heights as soon as it has them. Runs
    /// in a task on the main actor; the screen closing cancels that task.
    public func measureAll() async {
        for rows in table.chunks {
            guard !Task.isCancelled else { return }  // before each chunk: a closed screen measures no more
            let heights = await Self.heights(of: rows, in: table)
            guard !Task.isCancelled else { return }  // measured just before the cancel: not shown
            table.show(heights, for: rows)
        }
    }

    /// One chunk's heights, with a sizing cell of its own (a cell is not Sendable: one per call).
    nonisolated static func heights(of rows: Range<Int>, in table: ChunkTable) async -> [Double] {
        // TODO(1): look at where this runs now, and make it run off the main actor, whoever awaits it.
        let cell = table.makeSizingCell()
        return rows.map { cell.height(forText: table.texts[$0]) }
    }
}
