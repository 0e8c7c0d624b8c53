import Dispatch
import WorkshopCore

/// The "view controller": it owns the Screen and shows feed items as they come. It never
/// fetches or parses; the variants decide where that happens. Main queue only, like UIKit.
final class FeedController: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    private(set) var items: [FeedItem] = []
    private(set) var failure: FeedError?
    private(set) var parseEnded = false
    /// When each item arrived on main, as `monotonicSeconds()` (comparable with the network thread's stamps).
    private var shownAt: [Double] = []
    var firstItemAt: Double? { shownAt.first }

    init(screen: Screen) { self.screen = screen }

    /// Done when the parse has ended and every item is on the table, or on the first failure.
    var isFinished: Bool { failure != nil || (parseEnded && pending.isEmpty) }

    func showLoading() {
        requireMainQueue()
        screen.table.placeholder = "loading the feed..."
    }

    /// Items that arrived but are not on the table yet.
    private var pending: [FeedItem] = []

    /// Takes an item; it goes on the table at the end of this turn of the main queue, together
    /// with any others that arrive in the same turn (one reload, as a table view would batch).
    func show(_ item: FeedItem) {
        requireMainQueue()
        shownAt.append(monotonicSeconds())
        pending.append(item)
        if pending.count == 1 {
            DispatchQueue.main.async { self.reloadTable() }
        }
    }

    private func reloadTable() {
        requireMainQueue()
        items += pending
        pending.removeAll()
        let items = items
        screen.table.reloadData(count: items.count) { TableRow(text: items[$0].title, detail: items[$0].author) }
        screen.status = "\(items.count) items"
    }

    /// How many items were on the model before `moment` (a `monotonicSeconds()` stamp).
    func itemsShown(before moment: Double?) -> Int {
        requireMainQueue()
        guard let moment else { return 0 }
        return shownAt.filter { $0 < moment }.count
    }

    func finish(_ outcome: Result<Int, FeedError>) {
        requireMainQueue()
        switch outcome {
        case .success: parseEnded = true
        case .failure(let error): fail(error)
        }
    }

    func fail(_ error: FeedError) {
        requireMainQueue()
        guard failure == nil else { return }
        failure = error
        screen.status = "error: \(error)"
    }
}
