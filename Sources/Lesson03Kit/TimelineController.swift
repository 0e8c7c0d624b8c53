import Dispatch
import WorkshopCore
import WorkshopServer

/// The "view controller" every variant shares: it shows "loading...", the timeline, and an
/// icon on a row. It never fetches anything; the variants decide where fetching runs.
/// It is `@MainActor`, like a UIViewController: only main-thread code may call it.
///
/// As in the article's `cellForRowAtIndexPath:`, an icon is wanted only when its row comes
/// on the screen: the row shows a blank placeholder and the variant is asked to fetch it
/// (`iconsWanted`). With the cache on (the サクサク article's advice), a row that comes back
/// into view gets the icon fetched before, at once, without a request.
@MainActor
public final class TimelineController: LessonController {
    public private(set) var entries: [TimelineEntry] = []
    public private(set) var iconsSettled = 0
    public private(set) var iconFailures = 0
    /// Icon fetches asked of the variant (the requests the server sees for icons).
    public private(set) var iconRequests = 0
    /// Rows that came into view and took their icon from the cache: requests saved.
    public private(set) var iconCacheHits = 0
    public private(set) var timelineShownAt: Double?
    public private(set) var lastIconAt: Double?
    /// Runs right after the rows are shown (tests use it to redraw rows mid-flight).
    public var afterTimelineShown: (() -> Void)?
    /// Set by the variant: fetch these rows' icons and hand each to `showIcon(_:forRow:)`.
    /// Called on main with the rows that came into view and are neither cached nor in flight.
    public var iconsWanted: (([Int]) -> Void)?

    /// The user's finger: rows to scroll (negative: up), one move after the screen has settled.
    let scrollMoves: [Int]
    private var movesMade = 0
    private var moveScheduled = false
    /// Icons by user name, as fetched (nil: `--no-cache`). Only main touches it, like the table.
    private var cache: [String: [UInt8]]?
    /// Rows whose icon is being fetched now (a row redrawn meanwhile is not asked for twice).
    private var inFlight: Set<Int> = []
    /// Rows that came into view since the variant was last asked.
    private var wanted: [Int] = []

    public init(
        title: String, output: ScreenOutput, visibleRows: Int? = nil, scrollMoves: [Int] = [], cache: Bool = true
    ) {
        self.scrollMoves = scrollMoves
        self.cache = cache ? [:] : nil
        super.init(title: title, output: output)
        screen.table.visibleRowCount = visibleRows
        screen.table.willDisplayRow = { [unowned self] row in rowWillDisplay(row) }
    }

    /// From the rows on screen to the last icon in (nil until both happened).
    public var iconsPhaseSeconds: Double? {
        guard let shown = timelineShownAt, let last = lastIconAt else { return nil }
        return last - shown
    }

    /// The rows are shown, every move is made and every icon on the screen has settled.
    public var allIconsSettled: Bool {
        timelineShownAt != nil && inFlight.isEmpty && wanted.isEmpty && movesMade == scrollMoves.count
    }
    override public var isFinished: Bool { super.isFinished || allIconsSettled }
    override public var progress: String {
        timelineShownAt == nil
            ? "no timeline yet"
            : "\(iconsSettled) of \(counted(iconRequests, "icon")) in, \(movesMade) of \(counted(scrollMoves.count, "scroll")) made"
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
        askForWantedIcons()
        afterTimelineShown?()
        settleOrScroll()
    }

    /// Puts an icon on the row with this index. The cell is looked up *now*, by index:
    /// the cell that showed the row when the fetch began may show another row by now.
    public func showIcon(_ icon: [UInt8]?, forRow index: Int) {
        trace.measure("set icon") {
            if let icon {
                screen.table.cell(forRow: index)?.icon = icon
                cache?[entries[index].user.name] = icon
            } else {
                iconFailures += 1
            }
        }
        inFlight.remove(index)
        iconsSettled += 1
        lastIconAt = screen.elapsed
        settleOrScroll()
    }

    /// `tableView(_:willDisplay:forRowAt:)`: a cached icon at once, else a placeholder and a fetch.
    private func rowWillDisplay(_ row: Int) {
        guard entries.indices.contains(row), !inFlight.contains(row) else { return }
        if let icon = cache?[entries[row].user.name] {
            iconCacheHits += 1
            screen.table.cell(forRow: row)?.icon = icon
            return
        }
        // The article's blank.png: a row that comes back without a cache loses its old icon.
        if let cell = screen.table.cell(forRow: row), cell.icon != nil { cell.icon = nil }
        inFlight.insert(row)
        iconRequests += 1
        wanted.append(row)
    }

    /// Hands the rows that came into view to the variant, all at once (a no-thread variant
    /// fetches them right here, on main, before the next frame: the article's freeze).
    private func askForWantedIcons() {
        let rows = wanted
        wanted.removeAll()
        if !rows.isEmpty { iconsWanted?(rows) }
    }

    /// Once every icon on the screen has settled, the user makes the next move: on a later
    /// turn of the main loop, so that the settled screen is drawn first.
    private func settleOrScroll() {
        guard inFlight.isEmpty, movesMade < scrollMoves.count, !moveScheduled, failure == nil, !isCancelled else {
            return
        }
        moveScheduled = true
        DispatchQueue.main.async { [self] in
            moveScheduled = false
            guard failure == nil, !isCancelled else { return }  // the user who cancelled does not scroll on
            let move = scrollMoves[movesMade]
            movesMade += 1
            trace.measure("scroll") { screen.table.scroll(by: move) }
            askForWantedIcons()
            settleOrScroll()
        }
    }
}
