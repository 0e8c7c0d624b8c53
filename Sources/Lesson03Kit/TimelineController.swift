import WorkshopCore

/// The "view controller" both variants share: it shows "loading...", the timeline, and an
/// icon on a row. It never fetches anything; the variants decide where fetching runs.
/// It is `@MainActor`, like a UIViewController: only main-thread code may call it.
@MainActor
public final class TimelineController: LessonController {
    public private(set) var entries: [TimelineEntry] = []
    public private(set) var iconsSettled = 0
    public private(set) var iconFailures = 0
    public private(set) var timelineShownAt: Double?
    public private(set) var lastIconAt: Double?
    /// Runs right after the rows are shown (tests use it to redraw rows mid-flight).
    public var afterTimelineShown: (() -> Void)?

    /// From the rows on screen to the last icon in (nil until both happened).
    public var iconsPhaseSeconds: Double? {
        guard let shown = timelineShownAt, let last = lastIconAt else { return nil }
        return last - shown
    }

    public var allIconsSettled: Bool { timelineShownAt != nil && iconsSettled == entries.count }
    override public var isFinished: Bool { super.isFinished || allIconsSettled }
    override public var progress: String {
        timelineShownAt == nil ? "no timeline yet" : "\(iconsSettled) of \(counted(entries.count, "icon")) in"
    }

    /// `[self.tableView reloadData]` in the article.
    public func showTimeline(_ entries: [TimelineEntry]) {
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
    public func showIcon(_ icon: [UInt8]?, forRow index: Int) {
        trace.measure("set icon") {
            if let icon { screen.table.cell(forRow: index)?.icon = icon } else { iconFailures += 1 }
        }
        iconsSettled += 1
        lastIconAt = screen.elapsed
    }
}
