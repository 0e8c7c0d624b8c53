// What exercise 07b's file codes against: the table (its rows in chunks, its sizing cells, the
// place it shows heights), as the app gives it, and what it records for the checks. Compiled
// with your file, the checks and the driver (and seen by your editor through ../compile_flags.txt).
import ExerciseChecks
import Foundation
import Lesson07Kit
import WorkshopCore

/// What the sizing cells of one exercise-07b table saw: each row measured, whether on the main
/// thread, whether after the check cancelled the run. Cells measure on any thread and the check
/// reads on main, so a lock guards it.
///
/// The check can cancel the run from inside a measurement (`cancelAtRow`): the cell cancels the
/// task right there, on whatever thread measures, so the cancel lands in the middle of a chunk
/// on any machine however slow, with no clock involved.
final class ChunkLog: Sendable {
    struct Measurement: Sendable {
        var row: Int
        var onMain: Bool
        var afterCancel: Bool
    }

    /// When a row was measured, on the monotonic clock: for the picture.
    struct Timing: Sendable {
        var row: Int
        var onMain: Bool
        var start: Double
        var end: Double
    }

    private struct State {
        var measurements: [Measurement] = []
        var timings: [Timing] = []
        var cancelled = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())
    /// Each text's row: a cell is given text, the check thinks in rows (no two texts are alike).
    let rowOfText: [String: Int]
    let chunkSize: Int
    let cancelAtRow: Int?

    init(texts: [String], chunkSize: Int, cancelAtRow: Int?) {
        rowOfText = Dictionary(texts.enumerated().map { ($1, $0) }) { first, _ in first }
        self.chunkSize = chunkSize
        self.cancelAtRow = cancelAtRow
    }

    /// The task the check runs `measureAll()` in: what a cancel cancels.
    func watch(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }

    /// A cell starts measuring `text` on the calling thread; returns its row.
    func begin(_ text: String) -> Int {
        let row = rowOfText[text] ?? -1
        let onMain = MainPlace.here.isMain
        let cancelNow = state.withLock { state -> Bool in
            state.measurements.append(Measurement(row: row, onMain: onMain, afterCancel: state.cancelled))
            return row == cancelAtRow && !state.cancelled
        }
        if cancelNow { cancel() }
        return row
    }

    /// The check cancels the run: measurements and shows from now on are late.
    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// A cell has measured `row`, from `start` to now.
    func end(_ row: Int, onMain: Bool, start: Double) {
        let end = monotonicSeconds()
        state.withLock { $0.timings.append(Timing(row: row, onMain: onMain, start: start, end: end)) }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }
    var measurements: [Measurement] { state.withLock { $0.measurements } }

    /// Each chunk's measuring as one span of the check's picture, in the lane of the thread it
    /// ran on ("main", or "off main"): "measure rows 41-80".
    func recordChunkSpans() {
        let timings = state.withLock { $0.timings }
        let chunks = Dictionary(grouping: timings) { [$0.row / chunkSize, $0.onMain ? 1 : 0] }
        for (key, rows) in chunks.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let first = key[0] * chunkSize
            CheckTimelineRecorder.span(
                key[1] == 1 ? "main" : "off main", "measure rows \(first + 1)-\(first + chunkSize)",
                from: rows.map(\.start).min() ?? 0, to: rows.map(\.end).max() ?? 0)
        }
    }
}

/// Exercise 07b's sizing cell: lesson 07's (`TextCellSizer`), which also tells the check where
/// and when it measured (the check's picture, `check 07b --svg`, draws each chunk in the lane of
/// the thread it ran on). Not `Sendable`, like any sizing cell: its views change with every
/// row. Make one where you measure (`ChunkTable.makeSizingCell()`) and use it there only.
public final class ChunkSizingCell {
    private let sizer: TextCellSizer
    private let log: ChunkLog

    init(width: Double, log: ChunkLog) {
        sizer = TextCellSizer(width: width)
        self.log = log
    }

    /// The exact height of a row showing `text`: the cell is filled and laid out, which takes
    /// real work (the lesson's constraint solver), on the calling thread.
    public func height(forText text: String) -> Double {
        let start = monotonicSeconds()
        let row = log.begin(text)
        defer { log.end(row, onMain: MainPlace.here.isMain, start: start) }
        // The lesson's timeline texts always lay out; nil would be a solver bug, shown as "nan pt".
        return (try? sizer.height(forText: text)) ?? .nan
    }
}

/// Exercise 07b's table: it belongs to the main actor, like a UITableView. Its rows come in
/// chunks (`chunks`); `show(_:for:)` draws a chunk's exact heights, and records what it was
/// given for the checks.
@MainActor
public final class ChunkTable {
    struct Shown {
        var rows: Range<Int>
        var heights: [Double]
        var afterCancel: Bool
    }

    /// The text of each row, row 0 first.
    public nonisolated let texts: [String]
    /// The rows, a chunk at a time, in the order the table wants them measured.
    public nonisolated let chunks: [Range<Int>]
    nonisolated let cellWidth: Double
    nonisolated let log: ChunkLog
    private(set) var shown: [Shown] = []
    /// The check cancels the run once this chunk (by index) is shown (nil: not at a show).
    let cancelAtShow: Int?

    init(texts: [String], chunkSize: Int, cellWidth: Double, cancelAtRow: Int? = nil, cancelAtShow: Int? = nil) {
        self.texts = texts
        chunks = stride(from: 0, to: texts.count, by: chunkSize).map { $0..<min($0 + chunkSize, texts.count) }
        self.cellWidth = cellWidth
        log = ChunkLog(texts: texts, chunkSize: chunkSize, cancelAtRow: cancelAtRow)
        self.cancelAtShow = cancelAtShow
    }

    /// A new sizing cell, for one task or queue to measure with. Call it anywhere.
    public nonisolated func makeSizingCell() -> ChunkSizingCell {
        ChunkSizingCell(width: cellWidth, log: log)
    }

    /// Draws `heights` for `rows` (a chunk): the table redraws those rows at their exact heights.
    public func show(_ heights: [Double], for rows: Range<Int>) {
        shown.append(Shown(rows: rows, heights: heights, afterCancel: log.isCancelled))
        if let cancelAtShow, chunks.firstIndex(of: rows) == cancelAtShow { log.cancel() }
    }
}
