import WorkshopCore

/// The "view controller" of this lesson: it owns the Screen and shows how the save is going.
/// It never touches the database; the variants decide where the writing runs.
/// Like a UIViewController it lives on the main queue (every method checks).
final class SaveScreen: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    let job: SaveJob
    private(set) var results: [BulkSave.Result] = []
    private(set) var failure: String?
    private(set) var finishedAt: Double?
    /// The latest row count the main thread read itself (threaded variant), by strategy.
    var countsReadOnMain: [SaveStrategy: Int] = [:]

    init(screen: Screen, job: SaveJob) {
        self.screen = screen
        self.job = job
    }

    var isFinished: Bool { finishedAt != nil }

    func showSaving() {
        requireMainQueue()
        screen.table.placeholder = "saving \(job.rows) rows three ways..."
    }

    func showCommitted(_ rows: Int, of strategy: SaveStrategy) {
        requireMainQueue()
        let read = countsReadOnMain[strategy].map { "; main thread reads count = \($0)" } ?? ""
        screen.status = "\(strategy.rawValue): \(rows) of \(job.rows(for: strategy)) rows committed\(read)"
    }

    func showResult(_ result: BulkSave.Result) {
        requireMainQueue()
        results.append(result)
        screen.status = "\(result.strategy.rawValue): \(result.rows) rows in \(String(format: "%.2f", result.seconds)) s"
    }

    func showFinished() {
        requireMainQueue()
        finishedAt = screen.elapsed
        screen.table.placeholder = failure == nil ? "saved" : "save failed"
    }

    func showFailure(_ message: String) {
        requireMainQueue()
        failure = message
        screen.status = "error: \(message)"
        showFinished()
    }
}
