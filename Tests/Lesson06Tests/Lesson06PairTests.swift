import Lesson06Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// The same save through both variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (Swift Testing runs its tests on other threads, where
/// RunLoop.main's timers never fire); every run is bounded by a timeout. XCTest runs each
/// test on the main thread, so a test may step onto the main actor with `assumeIsolated`.
final class Lesson06PairTests: XCTestCase {
    private var scratch: ScratchFolder!

    override func setUpWithError() throws {
        scratch = try ScratchFolder("lesson06-pair")
    }

    override func tearDown() {
        scratch.tearDown()
    }

    /// Runs one variant on the main actor; `prepare` sees its database files before the save.
    private func perform(
        _ variant: Variant, settings: SaveRun.Settings,
        prepare: @Sendable ([SaveStrategy: String]) throws -> Void = { _ in }
    ) -> VariantRun<SaveDetails> {
        let folder = scratch!
        return MainActor.assumeIsolated {
            SaveRun.perform(variant, settings: settings, folder: folder, prepare: prepare)
        }
    }

    /// 21 commits (10 one-row commits, 1 transaction, 10 batches), each made 0.25 s slower
    /// (a slow phone's storage): the no-thread save blocks the main thread for over 5 s.
    private func run(_ variant: Variant, rows: Int = 50_000, commitLatency: Double = 0.25) -> VariantRun<SaveDetails> {
        var settings = SaveRun.Settings()
        settings.job.rows = rows
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = rows / 10
        settings.job.commitLatencySeconds = commitLatency
        settings.timeoutSeconds = 120
        return perform(variant, settings: settings)
    }

    func testBothVariantsSaveTheSameTablesAndOnlyTheThreadedOneKeepsTheScreenAlive() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)

        // Same result: every strategy's final table is identical both ways.
        XCTAssertEqual(plain.details.digests.count, 3)
        XCTAssertEqual(plain.details.digests, queued.details.digests)
        XCTAssertEqual(plain.details.results.map(\.rows), [10, 50_000, 50_000])
        XCTAssertEqual(queued.details.results.map(\.rows), [10, 50_000, 50_000])

        // The no-thread stall covers the write (and its 21 slow commits): the Screen could
        // not draw until it was done.
        let written = plain.details.results.map(\.seconds).reduce(0, +)
        XCTAssertGreaterThanOrEqual(written, 21 * 0.25)
        XCTAssertGreaterThanOrEqual(
            plain.screen.maxStallSeconds, 0.9 * written,
            "stall \(plain.screen.maxStallSeconds) s for \(written) s of writing")
        print(
            String(
                format: "lesson06 pair: max stall no-thread %.3f s, threaded %.3f s", plain.screen.maxStallSeconds,
                queued.screen.maxStallSeconds))
        // The threaded one stays under a tenth of it.
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds,
            "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
    }

    func testTheMainThreadReadsOnlyWholeBatches() {
        let queued = run(.threaded, rows: 40_000, commitLatency: 0)
        XCTAssertNil(queued.failure)
        XCTAssertGreaterThan(queued.details.countReadsOnMain, 10, "the main thread kept reading while the writer wrote")
        XCTAssertEqual(queued.details.tornReads, [], "a count from the middle of a transaction")
    }

    func testAFailingBatchIsReportedBothWaysAndEarlierBatchesStay() throws {
        for variant in [Variant.noThread, .threaded] {
            var settings = SaveRun.Settings()
            settings.job.rows = 30
            settings.job.perRowCommitRows = 5
            settings.job.batchRows = 10
            settings.timeoutSeconds = 30
            let batchedFile = SaveRun.databasePath(variant, .multiRowBatches, in: scratch)
            let failed = perform(variant, settings: settings) { _ in
                // Row 15, in the second batch, is refused by a trigger with its own message.
                try SQLiteDatabase(path: batchedFile).execute(
                    """
                    create trigger refuse before insert on tblA when new.id = '0000015'
                    begin select raise(abort, 'row 15 refused'); end
                    """)
            }
            XCTAssertEqual(
                failed.failure?.contains("row 15 refused"), true, "\(variant): \(failed.failure ?? "no failure")")
            XCTAssertEqual(failed.details.results.map(\.strategy), [.perRowCommit, .oneTransaction], "\(variant)")
            XCTAssertTrue(failed.gotStarted, "\(variant): it saved two strategies before it failed")
            // Batch 1 (rows 1-10: 9 new, row 10 existed) is committed; nothing of batch 2.
            let rows = try SQLiteDatabase(path: batchedFile).query("select count(*), max(id) from tblA")
            XCTAssertEqual(rows, [[.integer(3 + 9), .text("0000030")]], "\(variant)")
            XCTAssertEqual(
                try SQLiteDatabase(path: batchedFile).query(
                    "select count(*) from tblA where id between '0000011' and '0000019'"),
                [[.integer(0)]], "\(variant): a row of the failed batch was committed")
        }
    }

    func testAVariantWhoseFilesCannotBeMadeFailsWithOneCauseAndNeverStarted() {
        scratch.tearDown()  // the folder is gone: no database file can be made in it
        for variant in [Variant.noThread, .threaded] {
            let failed = run(variant, rows: 100, commitLatency: 0)
            XCTAssertEqual(failed.failure?.hasPrefix("setup failed: "), true, "\(variant): \(failed.failure ?? "none")")
            XCTAssertFalse(failed.gotStarted, "\(variant): a run that never started has no figures for the table")
            XCTAssertTrue(failed.details.results.isEmpty)
        }
    }

    func testACancelledWriterStopsAtItsNextCommit() throws {
        var job = SaveJob()
        job.rows = 1_000
        job.commitLatencySeconds = 0.01  // 1,000 one-row commits: over 10 s unless cancelled
        let folder = try XCTUnwrap(scratch)
        let stopped = try MainActor.assumeIsolated {
            var databases: [SaveStrategy: String] = [:]
            for strategy in SaveStrategy.allCases {
                databases[strategy] = SaveRun.databasePath(.threaded, strategy, in: folder)
                try job.prepare(SQLiteDatabase(path: SaveRun.databasePath(.threaded, strategy, in: folder)))
            }
            let controller = SaveController(job: job, title: "cancelled", output: .silent)
            let writer = ThreadedSave()
            writer.start(controller, databases: databases)
            writer.cancel()
            // The writer says it stopped (with a failure) on the main queue.
            return MainLoop.run(timeout: 30) { controller.isFinished } && controller.failure != nil
        }
        XCTAssertTrue(stopped, "the writer did not stop")
        let written = try SQLiteDatabase(path: SaveRun.databasePath(.threaded, .perRowCommit, in: folder)).query(
            "select count(*) from tblA where message != 'old'")
        XCTAssertLessThanOrEqual(written.first?.first?.int ?? -1, 1, "rows committed after cancel()")
    }

    func testTheWriterConnectionHonoursALoweredLimit() {
        var settings = SaveRun.Settings()
        settings.job.rows = 3_000
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = 1_000
        settings.job.variableLimit = 7
        settings.timeoutSeconds = 60
        let queued = perform(.threaded, settings: settings)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(queued.details.results.last?.rowsPerStatement, 2)
        XCTAssertEqual(queued.details.results.last?.commits, 3)
    }
}
