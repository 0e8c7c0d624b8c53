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
///
/// A cancel: a plain block passed to `async` cannot be taken back once queued (a
/// `DispatchWorkItem` can be skipped before it starts, but not stopped while it runs, and it
/// knows nothing of its request), so every block shares one `CancelToken` and checks it before
/// its side effect: before the request on its queue, and again on main before the show (an
/// answer that came in just before the cancel is dropped).
/// Cancelling the token also cancels the request in flight. A dispatch group counts the
/// blocks still queued or running, so the run knows when the last one has ended.
public struct ThreadedTimeline: Sendable {
    let timelineQueue = DispatchQueue.named("timeline-queue")
    /// The article used one serial image queue. With `width` > 1 there are several serial
    /// queues, row i's icon going to queue i % width, so that many fetches run at once.
    let imageQueues: [DispatchQueue]
    let token = CancelToken()
    let work = DispatchGroup()

    public init(imageWidth: Int) {
        imageQueues = (0..<max(1, imageWidth)).map { DispatchQueue.named("image-queue-\($0 + 1)") }
    }

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    public func start(_ controller: TimelineController, client: TimelineClient, rows: Int) {
        controller.onCancel { token.cancel() }
        controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        controller.showLoading()
        controller.iconsWanted = { wanted in loadIcons(wanted, client: client, into: controller) }
        let trace = controller.trace
        timelineQueue.async(group: work) {
            guard !token.isCancelled else { return }  // before the request
            let result = Result { () throws(FetchError) in
                try trace.measure("fetch timeline") { () throws(FetchError) in
                    try client.timeline(count: rows, cancelToken: token)
                }
            }
            DispatchQueue.main.async(group: work) {
                guard !token.isCancelled else { return }  // before the show: too late is no news
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
            imageQueues[index % imageQueues.count].async(group: work) {
                guard !token.isCancelled else { return }  // before the request
                let icon = trace.measure("fetch icon \(index + 1)") { try? client.icon(for: entry, cancelToken: token) }
                DispatchQueue.main.async(group: work) {
                    guard !token.isCancelled else { return }  // before the show
                    // Only the index crossed threads; the cell is looked up on main, now.
                    controller.showIcon(icon, forRow: index)
                }
            }
        }
    }
}
