import WorkshopCore
import WorkshopServer

/// The article's `no_thread` branch: everything on the main thread.
///
/// The timeline is fetched, then the rows on the screen are drawn, and drawing a row fetches
/// its icon, all while the main thread waits on the network. The Screen cannot draw a single
/// frame until the screenful is complete, and each scroll freezes it again: on a phone, that
/// is a black screen that ignores your finger.
public enum NoThreadTimeline {
    /// Runs on the main thread and returns when the first screenful is done; each later
    /// scroll fetches its new rows' icons on the main thread too.
    @MainActor
    public static func run(_ controller: TimelineController, client: TimelineClient, rows: Int) {
        // `tableView:cellForRowAtIndexPath:` in the article fetched each icon while drawing its cell.
        // A cancel tap waits in the queue while main is blocked: it is seen between two
        // fetches, so the fetch under way finishes, and its answer is dropped, not shown.
        controller.iconsWanted = { wanted in
            for index in wanted {
                guard !controller.isCancelled else { return }  // before the request
                let entry = controller.entries[index]
                let icon = controller.trace.measure("fetch icon \(index + 1)") { try? client.icon(for: entry) }
                guard !controller.isCancelled else { return }  // before the show
                controller.showIcon(icon, forRow: index)
            }
        }
        let entries: [TimelineEntry]
        do {
            entries = try controller.trace.measure("fetch timeline") { try client.timeline(count: rows) }
        } catch {
            return controller.fail("\(error)")
        }
        guard !controller.isCancelled else { return }  // before the show
        controller.showTimeline(entries)
    }
}
