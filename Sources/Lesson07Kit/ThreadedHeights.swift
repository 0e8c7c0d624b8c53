import Dispatch
import WorkshopCore

/// Threaded: the table draws at once with estimated heights; a background queue measures
/// the rows in chunks with its *own* sizing cell (ours is plain Swift, not a UIKit view, so it
/// may live on another queue, as long as only that queue touches it; a `UITableViewCell` may
/// not: UIKit is for the main thread only) and hands each chunk to the main queue, which
/// caches the heights and reloads.
///
/// A cancel: the queue checks one `CancelToken` before each chunk, and main checks it again
/// before it shows one (a chunk measured just before the tap is dropped). A dispatch group
/// says when the last block has ended.
struct ThreadedHeights: Sendable {
    // .utility: long work the user is waiting for. On Linux, libdispatch runs it at nice 2 (measured),
    // so the main thread wins the CPU when the two compete.
    let queue = DispatchQueue(label: "height-queue", qos: .utility)
    let chunkSize: Int
    let token = CancelToken()
    let work = DispatchGroup()

    init(chunkSize: Int) {
        self.chunkSize = max(1, chunkSize)
    }

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    func start(_ controller: RowHeightsController, cellWidth: Double) {
        controller.onCancel { token.cancel() }
        controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        controller.reload()  // estimated heights: something on screen now
        let texts = controller.texts
        let trace = controller.trace
        queue.async(group: work) { [chunkSize, token, work] in
            let cell = SizingCell.textCell(width: cellWidth)  // made and used on this queue only
            for start in stride(from: 0, to: texts.count, by: chunkSize) where !token.isCancelled {
                let rows = start..<min(texts.count, start + chunkSize)
                let result = Result {
                    try trace.measure("measure rows \(rows.lowerBound + 1)-\(rows.upperBound)", lane: "height-queue") {
                        try rows.map { try cell.height(forText: texts[$0]) }
                    }
                }
                DispatchQueue.main.async(group: work) {
                    guard !token.isCancelled else { return }  // before the show: too late is no news
                    switch result {
                    case .success(let heights): controller.deliver(heights, from: start)
                    case .failure(let error): controller.fail("\(error)")
                    }
                }
                if case .failure = result { return }
            }
        }
    }

    /// Stops the measuring after the chunk in hand; nothing more is shown.
    func cancel() { token.cancel() }
}
