import Dispatch
import WorkshopCore

/// No thread: every row is measured on the main thread before the table draws, as
/// `heightForRowAtIndexPath` does when the table asks for all rows at once. The Screen
/// cannot draw a frame until the last of them is done.
enum MeasureOnMain {
    static func run(_ controller: RowHeightsController, cellWidth: Double) {
        requireMainQueue()
        let cell = SizingCell.textCell(width: cellWidth)
        do {
            let heights = try controller.texts.map { try cell.height(forText: $0) }
            controller.deliver(heights, from: 0)
        } catch {
            controller.fail("\(error)")
        }
    }
}

/// Threaded: the table draws at once with estimated heights; a background queue measures
/// the rows in chunks with its *own* sizing cell (a sizing cell is never on screen, so it
/// may live on another queue, as long as only that queue touches it) and hands each chunk
/// to the main queue, which caches the heights and reloads.
struct MeasureInBackground: Sendable {
    // .utility: long work the user is waiting for. On Linux, libdispatch runs it at nice 2 (measured),
    // so the main thread wins the CPU when the two compete.
    let queue = DispatchQueue(label: "height-queue", qos: .utility)
    let chunkSize: Int

    func start(_ controller: RowHeightsController, cellWidth: Double) {
        requireMainQueue()
        controller.reload()  // estimated heights: something on screen now
        let texts = controller.texts
        let chunkSize = max(1, chunkSize)
        queue.async {
            let cell = SizingCell.textCell(width: cellWidth)  // made and used on this queue only
            for start in stride(from: 0, to: texts.count, by: chunkSize) {
                let rows = start..<min(texts.count, start + chunkSize)
                let result = Result { try rows.map { try cell.height(forText: texts[$0]) } }
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
}
