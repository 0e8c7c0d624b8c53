import WorkshopCore

/// The "view controller" both variants share: it owns the Screen and knows how to show the
/// timeline and an icon. It never fetches anything; the variants decide where fetching runs.
/// Like a UIViewController, it lives on the main queue (every method checks).
final class TimelineController: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    let client: TimelineClient
    let trace: Trace
    private(set) var entries: [TimelineEntry] = []
    private(set) var iconsSettled = 0
    private(set) var iconFailures = 0
    private(set) var timelineShownAt: Double?
    private(set) var lastIconAt: Double?
    private(set) var failure: String?
    /// Runs on main right after the rows are shown (tests use it to redraw rows mid-flight).
    var afterTimelineShown: (() -> Void)?

    init(screen: Screen, client: TimelineClient, trace: Trace) {
        self.screen = screen
        self.client = client
        self.trace = trace
    }

    var allIconsSettled: Bool { timelineShownAt != nil && iconsSettled == entries.count }
    var isFinished: Bool { failure != nil || allIconsSettled }

    func showLoading() {
        requireMainQueue()
        screen.table.placeholder = "loading..."
    }

    /// `[self.tableView reloadData]` in the article.
    func showTimeline(_ entries: [TimelineEntry]) {
        requireMainQueue()
        trace.measure("reload") {
            self.entries = entries
            screen.table.reloadData(count: entries.count) { index in
                TableRow(text: entries[index].text, detail: entries[index].user.name)
            }
        }
        timelineShownAt = screen.elapsed
        afterTimelineShown?()
    }

    /// Puts an icon on the row with this index. The cell is looked up *now*, by index:
    /// the cell that showed the row when the fetch began may show another row by now.
    func showIcon(_ icon: [UInt8]?, forRow index: Int) {
        requireMainQueue()
        trace.measure("set icon") {
            if let icon { screen.table.cell(forRow: index)?.icon = icon } else { iconFailures += 1 }
        }
        iconsSettled += 1
        lastIconAt = screen.elapsed
    }

    func showFailure(_ message: String) {
        requireMainQueue()
        failure = message
        screen.status = "error: \(message)"
    }
}
