import Dispatch
import WorkshopCore

/// Threaded: the table draws at once with estimated heights; a background queue measures
/// the rows in chunks with its *own* sizing cell (a sizing cell is never on screen, so it
/// may live on another queue, as long as only that queue touches it) and hands each chunk
/// to the main queue, which caches the heights and reloads.
struct ThreadedHeights: Sendable {
    // .utility: long work the user is waiting for. On Linux, libdispatch runs it at nice 2 (measured),
    // so the main thread wins the CPU when the two compete.
    let queue = DispatchQueue(label: "height-queue", qos: .utility)
    let chunkSize: Int
    /// Set when the run is over early (it failed or gave up): the queue measures no more chunks.
    private let cancelled = Locked(false)

    init(chunkSize: Int) {
        self.chunkSize = max(1, chunkSize)
    }

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    func start(_ controller: RowHeightsController, cellWidth: Double) {
        controller.reload()  // estimated heights: something on screen now
        let texts = controller.texts
        let trace = controller.trace
        queue.async { [chunkSize, cancelled] in
            let cell = SizingCell.textCell(width: cellWidth)  // made and used on this queue only
            for start in stride(from: 0, to: texts.count, by: chunkSize) where !cancelled.current {
                let rows = start..<min(texts.count, start + chunkSize)
                let result = Result {
                    try trace.measure("measure rows \(rows.lowerBound + 1)-\(rows.upperBound)", lane: "height-queue") {
                        try rows.map { try cell.height(forText: texts[$0]) }
                    }
                }
                DispatchQueue.main.async {
                    switch result {
                    case .success(let heights): controller.deliver(heights, from: start)
                    case .failure(let error): controller.fail("\(error)")
                    }
                }
                if case .failure = result { return }
            }
        }
    }

    /// Stops the measuring after the chunk in hand (call when the run ends before it finished).
    func cancel() { cancelled.withLock { $0 = true } }
}
