import WorkshopCore

/// The no-thread variant: the whole save runs on the main thread, the way the app in
/// "Core Data のパフォーマンスをちょっとだけ調べてみた" (2010-05-30) saved its ~300 objects
/// when it was told to quit, and took more than 5 s on an iPhone 3G.
///
/// The Screen cannot draw a frame until the last row is written: a frozen UI.
public enum NoThreadSave {
    /// Runs on the main thread and returns when every strategy is done (or one failed).
    @MainActor
    public static func run(_ controller: SaveController, databases: [SaveStrategy: String]) {
        controller.showSaving()
        // The user's Cancel waits in the main queue while main is busy here: it is seen after a
        // commit, when `isCancelled` is read, and the token stops the next transaction.
        let token = CancelToken()
        controller.onCancel { token.cancel() }
        do {
            for strategy in SaveStrategy.allCases {
                guard !controller.isCancelled else { return }  // before opening the next file
                let database = try SQLiteDatabase(path: databases[strategy, default: ""])
                // No progress reports: the Screen could not draw them anyway, the main
                // thread is busy right here until the last row is in.
                let result = try controller.trace.measure("save (\(strategy.rawValue))") {
                    try BulkSave.run(strategy, job: controller.job, on: database, cancelToken: token) { _ in
                        _ = controller.isCancelled  // handles a tap that came during that commit
                    }
                }
                guard !controller.isCancelled else { return }  // before the show
                controller.showResult(result)
            }
            controller.showFinished()
        } catch is CancellationError {
            return
        } catch {
            controller.fail("\(error)")
        }
    }
}
