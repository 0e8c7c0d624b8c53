import Dispatch
import WorkshopCore

/// The article's `gcd` branch: the same synchronous fetches, moved onto queues.
///
/// - a serial *timeline queue* fetches the timeline, then hops to the main queue to reload;
/// - an *image queue* fetches each icon of a row that came on the screen, then hops to the
///   main queue to set it on its row.
///
/// The main thread only ever does quick work (reload, set an icon), so it keeps drawing
/// frames: "loading..." at once, rows when they arrive, icons one by one.
public struct ThreadedTimeline: Sendable {
    let timelineQueue = DispatchQueue.named("timeline-queue")
    /// The article used one serial image queue. With `width` > 1 there are several serial
    /// queues, row i's icon going to queue i % width, so that many fetches run at once.
    let imageQueues: [DispatchQueue]

    public init(imageWidth: Int) {
        imageQueues = (0..<max(1, imageWidth)).map { DispatchQueue.named("image-queue-\($0 + 1)") }
    }

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    public func start(_ controller: TimelineController, client: TimelineClient, rows: Int) {
        controller.showLoading()
        controller.iconsWanted = { wanted in loadIcons(wanted, client: client, into: controller) }
        let trace = controller.trace
        timelineQueue.async {
            let result = Result { () throws(FetchError) in
                try trace.measure("fetch timeline") { () throws(FetchError) in try client.timeline(count: rows) }
            }
            DispatchQueue.main.async {
                switch result {
                case .success(let entries): controller.showTimeline(entries)
                case .failure(let error): controller.fail("\(error)")
                }
            }
        }
    }

    /// Runs on main when rows come on the screen: queue one fetch per row, deliver each on main.
    @MainActor
    func loadIcons(_ wanted: [Int], client: TimelineClient, into controller: TimelineController) {
        let trace = controller.trace
        for index in wanted {
            let entry = controller.entries[index]
            imageQueues[index % imageQueues.count].async {
                let icon = trace.measure("fetch icon \(index + 1)") { try? client.icon(for: entry) }
                DispatchQueue.main.async {
                    // Only the index crossed threads; the cell is looked up on main, now.
                    controller.showIcon(icon, forRow: index)
                }
            }
        }
    }
}
