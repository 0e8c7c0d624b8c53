import WorkshopCore

/// The async variant: the same save as `ThreadedSave`, in Swift 6.
///
/// - The writer is an actor, `SaveWriter`, that opens and owns its connections: only the
///   actor's code touches them, and the compiler checks that nothing else can reach them
///   (no queue label to respect by convention, as with the writer queue).
/// - The main actor's task asks the writer for one strategy at a time and `await`s it; while
///   it waits the main thread is free, and it shows each commit the writer reports through an
///   `AsyncStream`, in order.
/// - The main thread reads the row count every frame meanwhile, on its own connection, with
///   the same `CountWatcher` as the threaded variant: SQLite shows another connection only
///   committed transactions (in any journal mode); WAL lets it read without waiting.
@MainActor
public enum AsyncSave {
    /// Called on the main thread; returns at once. The harness cancels the task when the run
    /// ends, and the writer stops at its next commit.
    public static func start(_ controller: SaveController, databases: [SaveStrategy: String]) {
        controller.showSaving()
        let job = controller.job
        let writer = SaveWriter(trace: controller.trace)
        controller.startTask {
            do {
                for strategy in SaveStrategy.allCases {
                    // The writer reports "rows committed so far" after each commit. The child task
                    // inherits this task's priority, user-initiated (on Linux the pool's threads for it
                    // run at nice -2), but `save` runs on the writer's own `QueueExecutor` thread, at
                    // nice 0 like the writer queue's and the main thread's (`ps -L`).
                    let (commits, reporter) = AsyncStream.makeStream(of: Int.self)
                    async let saved = writer.save(
                        strategy, job: job, path: databases[strategy, default: ""], reportingTo: reporter)
                    // No thread waits here: the main thread draws frames until the next commit.
                    // The stream ends when the save does, however it ends.
                    await controller.trace.measure("await save (\(strategy.rawValue))", lane: Trace.awaitingLane) {
                        for await rows in commits where job.shouldReport(rows, of: strategy) {
                            guard !Task.isCancelled else { break }  // after the await, before the show
                            controller.showCommitted(rows, of: strategy)
                        }
                    }
                    let result = try await saved
                    guard !Task.isCancelled else { return }
                    controller.showResult(result)
                }
                controller.showFinished()
            } catch is CancellationError {
                return  // cancelled: the writer rolled back the transaction in hand
            } catch {
                controller.fail("\(error)")
            }
        }
    }
}

/// The writer: one actor, its SQLite connections opened and used inside it only.
///
/// An actor still runs one call at a time: it lets another in only at an `await` (it is
/// reentrant there), and `save` awaits nothing while it writes. SQLite's calls block the
/// thread they run on (and a slow commit sleeps), so this actor runs on a queue of its own
/// (`QueueExecutor`) and not on Swift's shared pool, whose few threads (one per core) every
/// other task needs. Either way it does not hold the main thread.
actor SaveWriter {
    private let trace: Trace
    private let executor = QueueExecutor(label: "writer-actor")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(trace: Trace) {
        self.trace = trace
    }

    /// Saves the job with `strategy` into the database at `path`. After each commit it sends
    /// the rows written so far to `reporter` (finished when the save ends, however it ends).
    ///
    /// A cancel of the calling task stops it with `CancellationError`: checked before the file
    /// is opened and before every write. The synchronous save cannot `await` in between, so the
    /// task's cancel handler cancels a `CancelToken` that `BulkSave` checks at each COMMIT, under
    /// its lock: the transaction under way is rolled back, never left half-done or committed
    /// after the cancel.
    func save(
        _ strategy: SaveStrategy, job: SaveJob, path: String, reportingTo reporter: AsyncStream<Int>.Continuation
    ) async throws -> BulkSave.Result {
        defer { reporter.finish() }
        let token = CancelToken()
        return try await withTaskCancellationHandler {
            try Task.checkCancellation()  // before the first write: a cancelled save touches nothing
            let database = try SQLiteDatabase(path: path)  // opened here, never leaves the actor
            return try trace.measure("save (\(strategy.rawValue))", lane: "writer actor") {
                try BulkSave.run(strategy, job: job, on: database, cancelToken: token) { rows in reporter.yield(rows) }
            }
        } onCancel: {
            token.cancel()
        }
    }
}
