import Dispatch
import WorkshopCore

/// The threaded variant: one writer connection on its own serial queue.
///
/// - The writer opens its connection *on* the queue, so the connection never crosses threads.
/// - Readers on other connections see only committed transactions (in any journal mode).
///   The files are in WAL mode, so they read the last committed state while the writer
///   writes, and neither waits for the other.
/// - Rows go in in transactions (`SaveJob.batchRows` rows each). After each commit the writer
///   tells the main queue how far it got; the Screen shows it at the next frame.
/// - Meanwhile the main thread keeps reading the row count on its own connection
///   (`CountWatcher`, below). It only ever sees whole transactions, never part of one.
/// - A cancel (the user's, or the run's end): the writer checks one `CancelToken` before every
///   write, and atomically at each COMMIT (`BulkSave.commit`): the transaction under way is
///   rolled back, so nothing lands after the cancel and only whole transactions before it.
///   Every block for main checks it again before it shows anything. A dispatch group says
///   when the writer's block has ended.
public struct ThreadedSave: Sendable {
    let writerQueue = DispatchQueue.named("writer-queue")
    let token = CancelToken()
    let work = DispatchGroup()

    public init() {}

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    public func start(_ controller: SaveController, databases: [SaveStrategy: String]) {
        controller.onCancel { token.cancel() }
        controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        controller.showSaving()
        let job = controller.job
        let trace = controller.trace
        writerQueue.async(group: work) {
            do {
                for strategy in SaveStrategy.allCases {
                    guard !token.isCancelled else { return }  // before opening the next file
                    let database = try SQLiteDatabase(path: databases[strategy, default: ""])
                    let result = try trace.measure("save (\(strategy.rawValue))") {
                        try BulkSave.run(strategy, job: job, on: database, cancelToken: token) { rows in
                            guard job.shouldReport(rows, of: strategy) else { return }
                            onMain { controller.showCommitted(rows, of: strategy) }
                        }
                    }
                    onMain { controller.showResult(result) }
                }
                onMain { controller.showFinished() }
            } catch is CancellationError {
                return  // cancelled: the transaction in hand was rolled back, nothing to say
            } catch {
                let message = "\(error)"
                onMain { controller.fail(message) }
            }
        }
    }

    /// Hands `show` to main, where it runs unless the save was cancelled in between.
    func onMain(_ show: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async(group: work) {
            guard !token.isCancelled else { return }  // before the show: too late is no news
            show()
        }
    }

    /// Stops the writer: the transaction under way is rolled back, no other one begins.
    public func cancel() { token.cancel() }
}

/// The main thread reading while the writer writes: every frame (16 ms) it counts the rows
/// of each database on its *own* connection, as a table view would fetch what to show.
///
/// A reader on its own connection sees only committed transactions, whole (in any journal
/// mode; WAL only means it does not wait for the writer). So every count must be
/// one the job can produce at a commit boundary (`SaveJob.consistentCounts`); a count from
/// the middle of a batch would be a torn read, and is counted as one.
@MainActor
final class CountWatcher {
    private let controller: SaveController
    private let readers: [(strategy: SaveStrategy, database: SQLiteDatabase, consistent: Set<Int>)]
    private var timer: DispatchSourceTimer?
    private(set) var reads = 0
    private(set) var tornReads: [String] = []

    /// Opens the main thread's own connections, one per database.
    init(controller: SaveController, databases: [SaveStrategy: String]) throws {
        self.controller = controller
        readers = try SaveStrategy.allCases.map { strategy in
            let database = try SQLiteDatabase(path: databases[strategy, default: ""])
            return (strategy, database, controller.job.consistentCounts(for: strategy))
        }
    }

    /// Reads at every frame from now on.
    func start() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .milliseconds(16), leeway: .milliseconds(1))
        // A timer on the main queue runs its handler on the main thread, where the controller lives.
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readCounts() } }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        timer = nil
        readCounts()  // one last read: the final state must be consistent too
    }

    private func readCounts() {
        for (strategy, reader, consistent) in readers {
            do {
                let count = Int(try reader.query("select count(*) from tblA").first?.first?.int ?? -1)
                reads += 1
                controller.countsReadOnMain[strategy] = count
                if !consistent.contains(count) { tornReads.append("\(strategy.rawValue): \(count) rows") }
            } catch {
                controller.fail(localized("main-thread read failed: %@", "\(error)"))
            }
        }
    }
}
