import WorkshopCore

/// The article's `no_thread` branch: everything on the main thread.
///
/// The timeline is fetched, then every row is drawn, and drawing a row fetches its icon,
/// all while the main thread waits on the network. The Screen cannot draw a single frame
/// until the very end: on a phone, that is a black screen that ignores your finger.
enum NoThreadTimeline {
    /// Runs on the main queue and returns when everything is done.
    static func run(_ controller: TimelineController, rows: Int) {
        requireMainQueue()
        let entries: [TimelineEntry]
        do {
            entries = try controller.trace.measure("fetch timeline") { try controller.client.timeline(count: rows) }
        } catch {
            controller.showFailure("\(error)")
            return
        }
        controller.showTimeline(entries)
        // `tableView:cellForRowAtIndexPath:` in the article fetched each icon while drawing its cell.
        for (index, entry) in entries.enumerated() {
            let icon = controller.trace.measure("fetch icon \(index + 1)") { try? controller.client.icon(for: entry) }
            controller.showIcon(icon, forRow: index)
        }
    }
}
