// Exercise 07b: the measuring that came back to main, with Approachable Concurrency on.
// Check it: swift run workshop check 07b
import ExerciseChecks

/// Lesson 07's async variant, a chunk of rows at a time: the table's view controller, on the
/// main actor, awaits each chunk's heights and shows them before it asks for the next chunk.
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
    /// `@concurrent`: with the upcoming feature `NonisolatedNonsendingByDefault` (SE-0461), on in
    /// this package and in new Xcode 26 app projects ("Approachable Concurrency"), opt-in in Swift
    /// 6.2 and 6.3, a `nonisolated` async function runs on its caller's actor, here the main
    /// actor, so every chunk froze the table. `@concurrent` says it leaves its caller's actor: the
    /// main actor only awaits it, and keeps drawing. With the feature off, the function left the
    /// main actor without it (SE-0338), and `@concurrent` means the same there.
    @concurrent
    nonisolated static func heights(of rows: Range<Int>, in table: ChunkTable) async -> [Double] {
        let cell = table.makeSizingCell()
        return rows.map { cell.height(forText: table.texts[$0]) }
    }
}
