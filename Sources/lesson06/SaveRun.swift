import WorkshopCore

/// One variant run end to end on the main thread, and what it measured.
struct SaveRun {
    struct Settings {
        var job = SaveJob()
        var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then is reported as failed.
        var timeoutSeconds = 300.0
    }

    var variant: Variant
    var metrics: [(String, Metric)]
    var results: [BulkSave.Result]
    /// Each strategy's final table as a digest: the result both variants must agree on.
    var digests: [SaveStrategy: String]
    var failure: String?
    var screen: ScreenMetrics
    var countReadsOnMain: Int
    var tornReads: [String]

    /// Runs `variant` with its own database files in `directory`. Call on the main thread:
    /// it runs the main run loop until the variant has finished (or the timeout passed).
    static func perform(_ variant: Variant, settings: Settings, directory: ScratchDirectory,
                        prepare: (SaveScreen, [SaveStrategy: String]) throws -> Void = { _, _ in }) -> SaveRun {
        requireMainQueue()
        let job = settings.job
        let screen = Screen(title: "saving \(job.rows) rows (\(variant.rawValue))", output: settings.output)
        let controller = SaveScreen(screen: screen, job: job)
        var databases: [SaveStrategy: String] = [:]
        var watcher: CountWatcher?
        do {
            // Setup, not timed: one file per strategy, the table, the rows that exist already.
            for strategy in SaveStrategy.allCases {
                let path = directory.path("\(variant.rawValue)-\(strategy.metricName).sqlite")
                try job.prepare(SQLiteDatabase(path: path))
                databases[strategy] = path
            }
            if variant == .threaded { watcher = try CountWatcher(controller: controller, databases: databases) }
            try prepare(controller, databases)
        } catch {
            screen.start()
            return SaveRun(variant: variant, metrics: [], results: [], digests: [:], failure: "setup failed: \(error)",
                           screen: screen.stop(), countReadsOnMain: 0, tornReads: [])
        }

        let clock = Stopwatch()
        screen.start()
        switch variant {
        case .threaded:
            watcher?.start()
            WriterQueueSave().start(controller, databases: databases)
        default:
            NoThreadSave.run(controller, databases: databases)
        }
        let finished = MainLoop.run(timeout: settings.timeoutSeconds) { controller.isFinished }
        let total = clock.elapsed
        watcher?.stop()
        let measured = screen.stop()

        var metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstContentSeconds ?? total)),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
        ]
        for result in controller.results {
            metrics.append((result.strategy.metricName, .perSecond(result.rowsPerSecond)))
        }
        if let batched = controller.results.first(where: { $0.strategy == .multiRowBatches }) {
            metrics.append(("rowsPerStatement", .count(batched.rowsPerStatement)))
            metrics.append(("batchCommits", .count(batched.commits)))
        }
        metrics.append(("countReadsOnMain", .count(watcher?.reads ?? 0)))
        metrics.append(("tornCountReads", .count(watcher?.tornReads.count ?? 0)))

        var failure = controller.failure ?? watcher?.readErrors.first.map { "main-thread read failed: \($0)" }
        if !finished && failure == nil {
            failure = "gave up after \(Int(settings.timeoutSeconds)) s: \(controller.results.count) of 3 strategies done"
        }
        var digests: [SaveStrategy: String] = [:]
        for (strategy, path) in databases {
            digests[strategy] = (try? SQLiteDatabase(path: path)).flatMap { try? BulkSave.digest(of: $0) }
        }
        return SaveRun(variant: variant, metrics: metrics, results: controller.results, digests: digests,
                       failure: failure, screen: measured, countReadsOnMain: watcher?.reads ?? 0,
                       tornReads: watcher?.tornReads ?? [])
    }
}
