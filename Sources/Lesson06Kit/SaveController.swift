import Foundation
import WorkshopCore

/// The "view controller" of this lesson: it shows how the save is going on the Screen and
/// never touches the database itself; the variants decide where the writing runs.
@MainActor
public final class SaveController: LessonController {
    public let job: SaveJob
    public private(set) var results: [BulkSave.Result] = []
    private var allSaved = false
    /// The latest row count the main thread read itself (threaded variant), by strategy.
    var countsReadOnMain: [SaveStrategy: Int] = [:]

    public init(job: SaveJob, title: String, output: ScreenOutput) {
        self.job = job
        super.init(title: title, output: output)
    }

    override public var isFinished: Bool { super.isFinished || allSaved }
    override public var progress: String {
        localized(
            SaveStrategy.allCases.count == 1 ? "%d of %d strategy done" : "%d of %d strategies done", results.count,
            SaveStrategy.allCases.count)
    }
    /// The Screen shows no rows here, only the save's progress: a save that failed before it
    /// began (its files could not be made) has no figures worth a table.
    override public var gotStarted: Bool { screen.table.placeholder != nil }

    func showSaving() {
        showLoading(localized("saving %d rows four ways...", job.rows))
    }

    // The main thread's own work is recorded too (not the count reads: one every frame would
    // mark every cell of the text timeline, though each takes a fraction of a millisecond).
    func showCommitted(_ rows: Int, of strategy: SaveStrategy) {
        trace.measure("show progress") {
            let read = countsReadOnMain[strategy].map { localized("; main thread reads count = %d", $0) } ?? ""
            screen.status = localized(
                "%@: %d of %d rows committed%@", localized(strategy.rawValue), rows, job.rows(for: strategy), read)
        }
    }

    func showResult(_ result: BulkSave.Result) {
        trace.measure("show result") {
            results.append(result)
            screen.status = localized(
                "%@: %d rows in %@ s", localized(result.strategy.rawValue), result.rows,
                String(format: "%.2f", result.seconds))
        }
    }

    func showFinished() {
        allSaved = true
        showLoading(localized("saved"))
    }
}
