import Dispatch
import WorkshopCore

/// Exercise 03: load the icons without freezing the Screen.
///
/// `loadIcons` is called on the main queue right after the timeline rows were shown in
/// `table`. It must put every entry's icon on the cell of that entry's row.
///
/// As shipped it works, but it fetches every icon on the main thread, so the Screen freezes
/// until the last icon is in. Make it return at once:
///   1. fetch each icon on `imageQueue` (not on the main thread);
///   2. hand each icon back to the main queue and put it on its row there.
/// Careful: cells are reused. While an icon is on its way, the table may be reloaded and
/// the cell you looked up earlier may show another row by the time the icon arrives.
///
/// Check your work:  swift test --filter Exercise03
public enum IconLoader {
    public static func loadIcons(for entries: [TimelineEntry], into table: TableView,
                                 using client: TimelineClient, imageQueue: DispatchQueue) {
        for (index, entry) in entries.enumerated() {
            let cell = table.cell(forRow: index)

            // TODO: this waits for the network on the main thread.
            let icon = try? client.icon(for: entry)

            // TODO: this must happen on the main queue, on the cell that shows `index` *then*.
            cell?.icon = icon
        }
    }
}
