import Foundation
import WorkshopCore

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a lesson 06 run leaves behind besides its metrics.
public struct SaveDetails: Sendable {
    public var results: [BulkSave.Result] = []
    /// Each strategy's final table as a digest: the result every variant must agree on.
    public var digests: [SaveStrategy: String] = [:]
    /// Row counts the main thread read while the writer wrote (threaded and async variants).
    public var countReadsOnMain = 0
    /// Counts read that no commit could have left: a reader saw part of a transaction.
    public var tornReads: [String] = []

    /// Rows per second of `strategy` (0 when it did not run).
    public func speed(of strategy: SaveStrategy) -> Double {
        results.first { $0.strategy == strategy }?.rowsPerSecond ?? 0
    }
}

/// Runs one variant of lesson 06, with its own database files, and adds the lesson's own metrics.
public enum SaveRun {
    public struct Settings: Sendable {
        public var job = SaveJob()
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed.
        public var timeoutSeconds = 300.0
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        public init(job: SaveJob = SaveJob(), output: ScreenOutput = .silent) {
            self.job = job
            self.output = output
        }
    }

    /// Call on the main thread: it serves the main run loop until the variant has finished.
    /// `prepare` sees the database files before the save starts (tests plant a failing row).
    @MainActor
    public static func perform(
        _ variant: Variant, settings: Settings, folder: ScratchFolder,
        prepare: ([SaveStrategy: String]) throws -> Void = { _ in }
    ) -> VariantRun<SaveDetails> {
        let job = settings.job
        var databases: [SaveStrategy: String] = [:]
        var setupFailure: String?
        do {
            // Setup, not timed: one file per strategy, the table, the rows that exist already.
            for strategy in SaveStrategy.allCases {
                let path = databasePath(variant, strategy, in: folder)
                try job.prepare(SQLiteDatabase(path: path))
                databases[strategy] = path
            }
            try prepare(databases)
        } catch {
            setupFailure = localized("setup failed: %@", "\(error)")
        }
        // Made after the setup, so that the trace's clock starts with the run.
        let controller = SaveController(
            job: job, title: localized("saving %d rows (%@)", job.rows, variant.rawValue), output: settings.output)
        var watcher: CountWatcher?
        // With a cancel: the rows the job had written when the tap was handled, read on main's
        // own connections after the variant's cancel ran (evidence from the files, not the
        // variant's word), and again once its work has ended. A commit after the cancel shows.
        let written = settings.cancelAfter == nil ? nil : try? WrittenRows(databases: databases)
        var writtenAtCancel: Int?

        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
            cancelAfter: settings.cancelAfter, details: SaveDetails()
        ) {
            if let setupFailure { return controller.fail(setupFailure) }
            switch variant {
            case .threaded, .async:
                do { watcher = try CountWatcher(controller: controller, databases: databases) } catch {
                    return controller.fail(localized("main-thread read failed: %@", "\(error)"))
                }
                watcher?.start()
                if variant == .async {
                    AsyncSave.start(controller, databases: databases)
                } else {
                    ThreadedSave().start(controller, databases: databases)
                }
                // After the variant's own cancel handler: its writer is stopped when this reads.
                controller.onCancel { writtenAtCancel = written?.count() }
            case .noThread:
                // On main, between two commits: nothing is in flight when this reads.
                controller.onCancel { writtenAtCancel = written?.count() }
                NoThreadSave.run(controller, databases: databases)
            }
        }
        watcher?.stop()
        run.details = SaveDetails(
            results: controller.results, digests: digests(of: databases), countReadsOnMain: watcher?.reads ?? 0,
            tornReads: watcher?.tornReads ?? [])
        run.metrics += controller.results.map { ($0.strategy.metricName, .perSecond($0.rowsPerSecond)) }
        if let batches = controller.results.first(where: { $0.strategy == .multiRowBatches }) {
            run.metrics.append((.rowsPerStatement, .count(batches.rowsPerStatement)))
            run.metrics.append((.batchCommits, .count(batches.commits)))
        }
        run.metrics += [
            (.countReadsOnMain, .count(run.details.countReadsOnMain)),
            (.tornCountReads, .count(run.details.tornReads.count)),
        ]
        if controller.wasCancelledByUser, let written, let writtenAtCancel {
            let late = max(0, written.count() - writtenAtCancel)
            run.metrics.append((.rowsCommittedAfterCancel, .count(late)))
            if late > 0, run.failure == nil {
                run.failure = localized(
                    late == 1
                        ? "after the cancel, %d row were committed to the database"
                        : "after the cancel, %d rows were committed to the database", late)
            }
        }
        return run
    }

    /// What the numbers mean, written from them: the speeds (from the writer that ran off the
    /// main thread, or from whichever run there is), then each variant's worst freeze.
    public static func takeaway(_ runs: [VariantRun<SaveDetails>]) -> String {
        guard let speeds = runs.last(where: { $0.name != Variant.noThread.rawValue }) ?? runs.last else { return "" }
        let perRow = speeds.details.speed(of: .perRowCommit)
        let batched = speeds.details.speed(of: .multiRowBatches)
        let periodWay = speeds.details.speed(of: .updateThenInsert)
        let fast = localized(
            """
            Batching is what made the save fast (%.0f rows/s one row per commit, %.0f rows/s in multi-row batches, \
            %.0fx; the pre-3.24 update-then-insert in one transaction: %.0f rows/s).
            """, perRow, batched, perRow > 0 ? batched / perRow : 0, periodWay)
        let freezes = runs.map { run in
            let reads = run.details.countReadsOnMain
            let watched =
                reads > 0 ? localized(", %d count reads on main, %d torn", reads, run.details.tornReads.count) : ""
            return localized("%@ %.3f s", run.name, run.screen.maxStallSeconds) + watched
        }
        var alive = localized("Worst freeze of the Screen: %@.", freezes.joined(separator: localized("; ")))
        if let queued = runs.run(.threaded), let actor = runs.run(.async) {
            alive += localized(
                " The writer actor, on a queue of its own (QueueExecutor), was %@.",
                VariantComparison.verdict(actor, against: queued, otherName: localized("the writer queue")))
        } else if runs.count == 1 {
            alive += localized(" Run all three variants (the default) to compare them.")
        }
        return fast + localized(" ") + alive
    }

    /// Rows the job has written, in all four files, read on connections of their own: rows
    /// whose message is no longer the seed's 'old' (the job never writes 'old').
    @MainActor
    final class WrittenRows {
        private let readers: [SQLiteDatabase]

        init(databases: [SaveStrategy: String]) throws {
            readers = try databases.values.map { try SQLiteDatabase(path: $0) }
        }

        func count() -> Int {
            readers.reduce(0) { total, reader in
                let rows = try? reader.query("select count(*) from tblA where message != ?", [.text("old")])
                return total + Int(rows?.first?.first?.int ?? 0)
            }
        }
    }

    /// The database file of one strategy in one variant: "threaded-multiRowBatchesRowsPerSecond.sqlite".
    public static func databasePath(_ variant: Variant, _ strategy: SaveStrategy, in folder: ScratchFolder) -> String {
        folder.file("\(variant.rawValue)-\(strategy.metricName.rawValue).sqlite")
    }

    /// Each database's table as one number (see `BulkSave.digest`); none for a file that cannot be read.
    static func digests(of databases: [SaveStrategy: String]) -> [SaveStrategy: String] {
        databases.compactMapValues { try? BulkSave.digest(of: SQLiteDatabase(path: $0)) }
    }
}
