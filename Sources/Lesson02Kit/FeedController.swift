import Dispatch
import WorkshopCore

/// The "view controller": it owns the Screen and shows feed items as they come. It never
/// fetches or parses; the variants decide where that happens.
@MainActor
public final class FeedController: LessonController {
    public private(set) var items: [FeedItem] = []
    public private(set) var parseEnded = false
    /// When each item arrived on main, as `monotonicSeconds()` (comparable with the network thread's stamps).
    private var shownAt: [Double] = []
    public var firstItemAt: Double? { shownAt.first }
    /// Items that arrived but are not on the table yet.
    private var pending: [FeedItem] = []

    /// Done when the parse has ended and every item is on the table, or on the first failure.
    override public var isFinished: Bool { super.isFinished || (parseEnded && pending.isEmpty) }
    override public var progress: String {
        localized(items.count == 1 ? "%d item shown" : "%d items shown", items.count)
    }

    /// Takes an item; it goes on the table at the end of this turn of the main queue, together
    /// with any others that arrive in the same turn (one reload, as a table view would batch).
    public func show(_ item: FeedItem) {
        shownAt.append(monotonicSeconds())
        pending.append(item)
        if pending.count == 1 {
            DispatchQueue.main.async { self.reloadTable() }
        }
    }

    private func reloadTable() {
        // Items taken in just before a cancel wait for this reload: once cancelled, they are dropped.
        guard !isCancelled else { return pending.removeAll() }
        items += pending
        pending.removeAll()
        let items = items
        trace.measure("show", lane: "main") {
            screen.table.reloadData(count: items.count) { TableRow(text: items[$0].title, detail: items[$0].author) }
            screen.status = localized(items.count == 1 ? "%d item" : "%d items", items.count)
        }
    }

    /// How many items were on the model before `moment` (a `monotonicSeconds()` stamp).
    public func itemsShown(before moment: Double?) -> Int {
        guard let moment else { return 0 }
        return shownAt.filter { $0 < moment }.count
    }

    /// The parse has ended: with the number of items, or why the feed could not be read.
    public func finish(_ outcome: Result<Int, FetchError>) {
        switch outcome {
        case .success: parseEnded = true
        case .failure(let error): fail("\(error)")
        }
    }
}
