import Dispatch
import WorkshopCore

/// The article's `gcd` branch: the same synchronous fetches, moved onto queues.
///
/// - a serial *timeline queue* fetches the timeline, then hops to the main queue to reload;
/// - an *image queue* fetches each icon, then hops to the main queue to set it on its row.
///
/// The main thread only ever does quick work (reload, set an icon), so it keeps drawing
/// frames: "loading..." at once, rows when they arrive, icons one by one.
final class GCDTimeline: Sendable {
    let timelineQueue = DispatchQueue.named("timeline-queue")
    /// The article used one serial image queue. With `width` > 1 there are several serial
    /// queues, icon i going to queue i % width, so that many fetches run at once.
    let imageQueues: [DispatchQueue]

    init(imageWidth: Int) {
        imageQueues = (0..<max(1, imageWidth)).map { DispatchQueue.named("image-queue-\($0 + 1)") }
    }

    /// Called on the main queue; returns at once. The work finishes later, on main.
    func start(_ controller: TimelineController, rows: Int) {
        requireMainQueue()
        controller.showLoading()
        timelineQueue.async {
            let result = Result {
                try controller.trace.measure("fetch timeline") { try controller.client.timeline(count: rows) }
            }
            DispatchQueue.main.async {
                switch result {
                case .success(let entries):
                    controller.showTimeline(entries)
                    self.loadIcons(for: entries, into: controller)
                case .failure(let error):
                    controller.showFailure("\(error)")
                }
            }
        }
    }

    /// Runs on main after the rows are shown: queue one fetch per row, deliver each on main.
    private func loadIcons(for entries: [TimelineEntry], into controller: TimelineController) {
        requireMainQueue()
        for (index, entry) in entries.enumerated() {
            imageQueues[index % imageQueues.count].async {
                let icon = controller.trace.measure("fetch icon \(index + 1)") { try? controller.client.icon(for: entry) }
                DispatchQueue.main.async {
                    // Only the index crossed threads; the cell is looked up on main, now.
                    controller.showIcon(icon, forRow: index)
                }
            }
        }
    }
}
