import WorkshopCore
import WorkshopServer

/// The "view controller" every variant shares: it shows "loading...", then the rows. It never
/// does the job itself; the variants decide where the job runs and hand it the rows.
/// `@MainActor`, like a UIViewController: only main-thread code may call it.
@MainActor
public final class RowsController: LessonController {
    public private(set) var rows: [TableRow] = []
    public private(set) var shownAt: Double?

    override public var isFinished: Bool { super.isFinished || shownAt != nil }
    override public var progress: String { shownAt == nil ? "no rows yet" : "shown" }

    /// `reloadData` with the rows, on the main thread.
    public func show(_ rows: [TableRow]) {
        trace.measure("reload") {
            self.rows = rows
            screen.table.reloadData(count: rows.count) { rows[$0] }
        }
        shownAt = screen.elapsed
    }
}
