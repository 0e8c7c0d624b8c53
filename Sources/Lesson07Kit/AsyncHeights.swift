import WorkshopCore

/// Async: the same job as `ThreadedHeights`, in Swift 6. The table draws at once with
/// estimated heights; a task group measures the rows in chunks off the main thread, each
/// chunk in a child task with its *own* sizing cell (made and used inside that task only, so
/// nothing is shared), and the main actor stores each chunk's heights and reloads.
///
/// `tasks` is the group's width: how many chunks are measured at once (1, the default, is
/// the threaded variant's one serial queue; `maxConcurrentOperationCount` in Operation terms).
@MainActor
enum AsyncHeights {
    /// Called on the main thread; returns at once. The harness cancels the task when the run
    /// ends: the child tasks then measure no further chunk.
    /// `stepIsolation`: instead of the task group, the demo of where an awaited function runs
    /// with Approachable Concurrency on (`StepIsolationDemo.swift`).
    static func start(
        _ controller: RowHeightsController, cellWidth: Double, chunkSize: Int, tasks: Int,
        stepIsolation: StepIsolation? = nil
    ) {
        controller.reload()  // estimated heights: something on screen now
        let texts = controller.texts
        let trace = controller.trace
        let chunks = stride(from: 0, to: texts.count, by: max(1, chunkSize)).map { start in
            start..<min(texts.count, start + max(1, chunkSize))
        }
        if let stepIsolation {
            return startStepByStep(controller, cellWidth: cellWidth, chunks: chunks, isolation: stepIsolation)
        }
        controller.startTask {
            do {
                try await withThrowingTaskGroup(of: (start: Int, heights: [Double]).self) { group in
                    var waiting = chunks.makeIterator()
                    // Called on the main actor; the closure it adds runs as a child task on
                    // Swift's task pool, off the main thread (a child task takes no actor from
                    // its parent: no `@concurrent` needed, with Approachable Concurrency on or off).
                    func measureNext() {
                        guard let rows = waiting.next() else { return }
                        // .utility, like the threaded variant's queue: the main thread wins the CPU.
                        group.addTask(priority: .utility) {
                            try Task.checkCancellation()
                            let cell = SizingCell.textCell(width: cellWidth)
                            let heights = try trace.measure(
                                "measure rows \(rows.lowerBound + 1)-\(rows.upperBound)", lane: "task pool"
                            ) { try rows.map { try cell.height(forText: texts[$0]) } }
                            return (rows.lowerBound, heights)
                        }
                    }
                    for _ in 0..<max(1, tasks) { measureNext() }
                    // Back on the main actor after each chunk; no thread waits in between.
                    while let chunk = try await trace.measure(
                        "await a chunk", lane: Trace.awaitingLane, { try await group.next() })
                    {
                        // After the await, before the show: a chunk measured just before a cancel is dropped.
                        guard !Task.isCancelled else { return group.cancelAll() }
                        measureNext()  // first, so the next chunk is measured while main reloads
                        controller.deliver(chunk.heights, from: chunk.start)
                    }
                }
            } catch is CancellationError {
                return  // cancelled: nothing more to measure or show
            } catch {
                controller.fail("\(error)")
            }
        }
    }
}
