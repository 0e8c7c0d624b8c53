import Dispatch
import WorkshopCore

/// The threaded variant: one writer connection on its own serial queue.
///
/// - The writer opens its connection *on* the queue, so the connection never crosses threads.
/// - The files are in WAL mode: readers read the last committed state while the writer
///   writes, and never wait for it.
/// - Rows go in in transactions (`SaveJob.batchRows` rows each). After each commit the writer
///   tells the main queue how far it got; the Screen shows it at the next frame.
/// - Meanwhile the main thread keeps reading the row count on its own connection
///   (`CountWatcher`). It only ever sees whole transactions, never part of one.
final class WriterQueueSave: Sendable {
    let writerQueue = DispatchQueue.named("writer-queue")

    /// Called on the main queue; returns at once. The work finishes later, on main.
    func start(_ controller: SaveScreen, databases: [SaveStrategy: String]) {
        requireMainQueue()
        controller.showSaving()
        let job = controller.job
        writerQueue.async {
            do {
                for strategy in SaveStrategy.allCases {
                    let database = try SQLiteDatabase(path: databases[strategy]!)
                    let result = try BulkSave.run(strategy, job: job, on: database) { rows in
                        guard job.shouldReport(rows, of: strategy) else { return }
                        DispatchQueue.main.async { controller.showCommitted(rows, of: strategy) }
                    }
                    DispatchQueue.main.async { controller.showResult(result) }
                }
                DispatchQueue.main.async { controller.showFinished() }
            } catch {
                let message = "\(error)"
                DispatchQueue.main.async { controller.showFailure(message) }
            }
        }
    }
}
