import Dispatch
// What exercise 07a's file codes against: the table and its sizing cells, as the app gives
// them (and the log they keep for the checks). Compiled with your file, the checks and the
// driver (and seen by your editor through ../compile_flags.txt).
import ExerciseChecks
import Foundation
import Lesson07Kit
import WorkshopCore

/// What every sizing cell of one exercise-07a table saw: each measurement's row, whether it
/// ran on main (`MainPlace`: the main queue, or the main thread that serves it), whether it ran inside one of the table's `height(forRow:)`
/// questions, whether it started after the check cancelled the run. Cells measure on any
/// thread and the check reads on main, so a lock guards it.
///
/// It can also hold one measurement (the `holdAt`-th, counted from 0, when it runs off main)
/// until the check releases it: the check cancels the run while that row is being measured,
/// on any machine however slow, and so sees what the code does with a cancel mid-way.
final class MeasureLog: Sendable {
    struct Measurement: Sendable {
        var row: Int
        var onMain: Bool
        /// Inside a `height(forRow:)` question the table asked on this (the main) thread.
        var insideAnswer: Bool
        var afterCancel: Bool
    }

    private struct State {
        var measurements: [Measurement] = []
        var answering = false
        var cancelled = false
        var inFlight = 0
        var peakInFlight = 0
        var holding = false
    }

    private let state = Locked(State())
    /// Each text's row: a cell is given text, the check thinks in rows (no two texts are alike).
    let rowOfText: [String: Int]
    let holdAt: Int?
    private let release = DispatchSemaphore(value: 0)
    /// The longest a measurement is held: the check releases it long before, unless the main
    /// thread cannot run (then the measuring goes on and the check reports what it saw).
    static let holdSeconds = 5.0

    init(texts: [String], holdAt: Int?) {
        rowOfText = Dictionary(texts.enumerated().map { ($1, $0) }) { first, _ in first }
        self.holdAt = holdAt
    }

    /// A cell starts measuring `text`, on the calling thread.
    func begin(_ text: String) {
        let onMain = MainPlace.here.isMain
        let hold = state.withLock { state -> Bool in
            state.measurements.append(
                Measurement(
                    row: rowOfText[text] ?? -1, onMain: onMain, insideAnswer: onMain && state.answering,
                    afterCancel: state.cancelled))
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            let hold = !onMain && state.measurements.count - 1 == holdAt
            if hold { state.holding = true }
            return hold
        }
        if hold { _ = release.wait(timeout: .now() + Self.holdSeconds) }
    }

    func end() { state.withLock { $0.inFlight -= 1 } }

    /// The table is asking the learner's code for a height (true) or has its answer (false).
    func answering(_ now: Bool) { state.withLock { $0.answering = now } }

    /// The check has cancelled the run: measurements from now on are late.
    func cancel() { state.withLock { $0.cancelled = true } }

    /// Lets the held measurement go on.
    func releaseHeld() { release.signal() }

    var isHolding: Bool { state.withLock { $0.holding } }
    var measurements: [Measurement] { state.withLock { $0.measurements } }
    var peakInFlight: Int { state.withLock { $0.peakInFlight } }
}

/// Exercise 07a's sizing cell: lesson 07's (`TextCellSizer`), which also tells the check where
/// and in what order it measured. Not `Sendable`, like any sizing cell: its views change with
/// every row. Make one where you measure (`HeightsTable.makeSizingCell()`) and use it there only.
public final class RowSizingCell {
    private let sizer: TextCellSizer
    private let log: MeasureLog

    init(width: Double, log: MeasureLog) {
        sizer = TextCellSizer(width: width)
        self.log = log
    }

    /// The exact height of a row showing `text`: the cell is filled and laid out, which takes
    /// real work (the lesson's constraint solver), on the calling thread.
    public func height(forText text: String) -> Double {
        log.begin(text)
        defer { log.end() }
        // The lesson's timeline texts always lay out; nil would be a solver bug, shown as "nan pt".
        return (try? sizer.height(forText: text)) ?? .nan
    }
}

/// Exercise 07a's table: it belongs to the main actor, like a UITableView. It asks the learner's
/// code for row heights (as `tableView(_:heightForRowAt:)` is asked) and, when told that rows
/// have their exact heights (`reloadRows`), asks again for those rows and records the answers.
@MainActor
public final class HeightsTable {
    struct Reload {
        var row: Int
        var height: Double
        var onMain: Bool
        var afterCancel: Bool
    }

    /// The text of each row, row 0 first.
    public nonisolated let texts: [String]
    /// The rows on screen now; the others are above or below them, out of sight.
    public nonisolated let visibleRows: Range<Int>
    /// The height to use for a row not measured yet (UITableView's `estimatedRowHeight`).
    public nonisolated let estimatedHeight: Double
    nonisolated let cellWidth: Double
    nonisolated let log: MeasureLog
    /// The learner's `height(forRow:)`, set by the check once the learner's object exists.
    var heightOfRow: (@MainActor (Int) -> Double)?
    private(set) var reloads: [Reload] = []
    /// Set (on main, like every reload) when the check cancels the run.
    var cancelled = false

    init(texts: [String], visibleRows: Range<Int>, estimatedHeight: Double, cellWidth: Double, holdAt: Int? = nil) {
        self.texts = texts
        self.visibleRows = visibleRows
        self.estimatedHeight = estimatedHeight
        self.cellWidth = cellWidth
        log = MeasureLog(texts: texts, holdAt: holdAt)
    }

    /// A new sizing cell, for one task or queue to measure with. Call it anywhere.
    public nonisolated func makeSizingCell() -> RowSizingCell {
        RowSizingCell(width: cellWidth, log: log)
    }

    /// Tells the table that `rows` have new heights: it asks for each one again and redraws it.
    public func reloadRows(_ rows: [Int]) {
        let onMain = MainPlace.here.isMain
        for row in rows {
            reloads.append(Reload(row: row, height: answer(row), onMain: onMain, afterCancel: cancelled))
        }
    }

    /// The table asks the learner's code for `row`'s height, as UIKit calls `heightForRowAt`.
    func answer(_ row: Int) -> Double {
        log.answering(true)
        defer { log.answering(false) }
        return heightOfRow?(row) ?? .nan
    }
}
