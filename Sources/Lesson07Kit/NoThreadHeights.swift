import WorkshopCore

/// No thread: every row is measured on the main thread before the table draws, as
/// `heightForRowAtIndexPath` does when the table asks for all rows at once. The Screen
/// cannot draw a frame until the last of them is done.
enum NoThreadHeights {
    /// Runs on the main thread and returns when every row is measured and shown (or one failed).
    @MainActor
    static func run(_ controller: RowHeightsController, cellWidth: Double) {
        let cell = SizingCell.textCell(width: cellWidth)
        do {
            let heights = try controller.trace.measure("measure \(controller.texts.count) rows") {
                try controller.texts.map { try cell.height(forText: $0) }
            }
            // A tap during the measuring waited in the main queue: it is seen here, before the show.
            guard !controller.isCancelled else { return }
            controller.deliver(heights, from: 0)
        } catch {
            controller.fail("\(error)")
        }
    }
}
