// Exercise 03: fetch the icons on a queue, and put each one on its own row on the main queue.
// Check it: swift run workshop check 03
import Dispatch
import Lesson03Kit
import WorkshopCore
import WorkshopServer

/// Loads the timeline's icons. `loadIcons` is called on the main queue right after the rows
/// were shown in `table`, and must put every entry's icon on the cell of that entry's row.
/// As shipped it fetches every icon on the main thread, so the Screen freezes until the last
/// one is in. Careful: cells are reused. While an icon is on its way, the table may be
/// reloaded, and the cell looked up earlier may show another row by the time the icon arrives.
public enum IconLoader {
    public static func loadIcons(
        for entries: [TimelineEntry], into table: TableView,
        using client: TimelineClient, imageQueue: DispatchQueue
    ) {
        for (index, entry) in entries.enumerated() {
            let cell = table.cell(forRow: index)

            // TODO(1): this waits for the network on the main thread. Fetch on `imageQueue`.
            let icon = try? client.icon(for: entry)

            // TODO(2): this must happen on the main queue, on the cell that shows `index` *then*.
            cell?.icon = icon
        }
    }
}
