import WorkshopCore

/// The no-thread variant: the whole save runs on the main thread, the way the app in
/// "Core Data のパフォーマンスをちょっとだけ調べてみた" (2010-05-30) saved its ~300 objects
/// when it was told to quit, and took more than 5 s on an iPhone 3G.
///
/// The Screen cannot draw a frame until the last row is written: a frozen UI.
enum NoThreadSave {
    /// Runs on the main queue and returns when every strategy is done (or one failed).
    static func run(_ controller: SaveScreen, databases: [SaveStrategy: String]) {
        requireMainQueue()
        controller.showSaving()
        do {
            for strategy in SaveStrategy.allCases {
                let database = try SQLiteDatabase(path: databases[strategy]!)
                // No progress reports: the Screen could not draw them anyway, the main
                // thread is busy right here until the last row is in.
                let result = try BulkSave.run(strategy, job: controller.job, on: database) { _ in }
                controller.showResult(result)
            }
            controller.showFinished()
        } catch {
            controller.showFailure("\(error)")
        }
    }
}
