import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

@testable import Lesson06Kit

// XCTest, because every test here runs lesson 06's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 06's runs on the main thread: the same save through the three variants, side by side
/// (`Lesson06PairTests`), and random cancels (`Lesson06CancelSlowTests`); their slow tier. Every
/// run is bounded by a timeout. XCTest runs each test on the main thread, so a test may step
/// onto the main actor with `assumeIsolated`. No tests of its own.
class Lesson06RunCase: XCTestCase {
    var scratch: ScratchFolder!

    override func setUpWithError() throws {
        scratch = try ScratchFolder("lesson06-pair")
    }

    override func tearDown() {
        scratch.tearDown()
    }

    /// Runs one variant on the main actor; `prepare` sees its database files before the save.
    func perform(
        _ variant: Variant, settings: SaveRun.Settings,
        prepare: @Sendable ([SaveStrategy: String]) throws -> Void = { _ in }
    ) -> VariantRun<SaveDetails> {
        let folder = scratch!
        return MainActor.assumeIsolated {
            SaveRun.perform(variant, settings: settings, folder: folder, prepare: prepare)
        }
    }

    /// Removes the database files `variants` left in the scratch folder.
    func removeDatabases(of variants: [Variant]) {
        for variant in variants {
            for strategy in SaveStrategy.allCases {
                let path = SaveRun.databasePath(variant, strategy, in: scratch)
                for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            }
        }
    }

    /// 22 commits (10 one-row commits, 1 transaction, 10 batches, 1 more transaction), each 0.25 s slower
    /// (a slow phone's storage): the no-thread save blocks the main thread for over 5 s.
    func run(_ variant: Variant, rows: Int = 50_000, commitLatency: Double = 0.25) -> VariantRun<SaveDetails> {
        var settings = SaveRun.Settings()
        settings.job.rows = rows
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = rows / 10
        settings.job.commitLatencySeconds = commitLatency
        settings.timeoutSeconds = 120
        return perform(variant, settings: settings)
    }
}

final class Lesson06PairTests: Lesson06RunCase {
    func testTheMainThreadReadsOnlyWholeBatches() {
        for variant in [Variant.threaded, .async] {
            let saved = run(variant, rows: 40_000, commitLatency: 0)
            XCTAssertNil(saved.failure)
            XCTAssertGreaterThan(
                saved.details.countReadsOnMain, 10, "\(variant): the main thread kept reading while the writer wrote")
            XCTAssertEqual(saved.details.tornReads, [], "\(variant): a count from the middle of a transaction")
        }
    }

    func testAFailingBatchIsReportedEveryWayAndEarlierBatchesStay() throws {
        for variant in [Variant.noThread, .threaded, .async] {
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
        for variant in [Variant.noThread, .threaded, .async] {
            let failed = run(variant, rows: 100, commitLatency: 0)
            XCTAssertEqual(failed.failure?.hasPrefix("setup failed: "), true, "\(variant): \(failed.failure ?? "none")")
            XCTAssertFalse(failed.gotStarted, "\(variant): a run that never started has no figures for the table")
            XCTAssertTrue(failed.details.results.isEmpty)
        }
    }

    /// The user's Cancel mid-save, in both off-main variants: the work ends, and no row is
    /// committed after the tap (the transaction under way is rolled back).
    func testACancelledWriterCommitsNothingAfterTheCancel() throws {
        var job = SaveJob()
        job.rows = 1_000
        job.commitLatencySeconds = 0.01  // 1,000 one-row commits: over 10 s unless cancelled
        let folder = try XCTUnwrap(scratch)
        for variant in [Variant.threaded, .async] {
            let (ended, written) = try MainActor.assumeIsolated {
                var databases: [SaveStrategy: String] = [:]
                for strategy in SaveStrategy.allCases {
                    databases[strategy] = SaveRun.databasePath(variant, strategy, in: folder)
                    try job.prepare(SQLiteDatabase(path: SaveRun.databasePath(variant, strategy, in: folder)))
                }
                let perRow = try SQLiteDatabase(path: SaveRun.databasePath(variant, .perRowCommit, in: folder))
                func rowsWritten() throws -> Int64 {
                    try perRow.query("select count(*) from tblA where message != 'old'").first?.first?.int ?? -1
                }
                let controller = SaveController(job: job, title: "cancelled", output: .silent)
                if variant == .async {
                    AsyncSave.start(controller, databases: databases)
                } else {
                    ThreadedSave().start(controller, databases: databases)
                }
                // Cancel mid-flight: once the writer has committed some rows.
                let started = MainLoop.run(timeout: 30) { ((try? rowsWritten()) ?? 0) >= 5 }
                controller.cancel()
                let atCancel = try rowsWritten()
                let ended = MainLoop.run(timeout: 30) { !controller.isWorkRunning }
                return (started && ended && controller.failure == nil, (atCancel, try rowsWritten()))
            }
            XCTAssertTrue(ended, "\(variant): the writer did not start, or did not stop, or failed")
            XCTAssertEqual(written.1, written.0, "\(variant): rows committed after the cancel")
        }
    }

    func testTheWriterConnectionHonoursALoweredLimit() {
        var settings = SaveRun.Settings()
        settings.job.rows = 3_000
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = 1_000
        settings.job.variableLimit = 7
        settings.timeoutSeconds = 60
        for variant in [Variant.threaded, .async] {
            let saved = perform(variant, settings: settings)
            XCTAssertNil(saved.failure)
            let batches = saved.details.results.first { $0.strategy == .multiRowBatches }
            XCTAssertEqual(batches?.rowsPerStatement, 2, "\(variant)")
            XCTAssertEqual(batches?.commits, 3, "\(variant)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson06PairSlowTests: Lesson06RunCase {
    func testTheThreeVariantsSaveTheSameTablesAndOnlyTheNoThreadOneFreezesTheScreen() throws {
        let plain = run(.noThread)
        XCTAssertNil(plain.failure)
        // Other processes on a shared 2-core machine can take a core from the main thread for a
        // moment, which only ever adds to a stall: the two off-main runs get up to three tries
        // together, until the ratios hold (a variant that really stalls fails every try).
        typealias Pair = (queued: VariantRun<SaveDetails>, actor: VariantRun<SaveDetails>)
        func ratiosHold(_ pair: Pair) -> Bool {
            let (queuedStall, actorStall) = (pair.queued.screen.maxStallSeconds, pair.actor.screen.maxStallSeconds)
            let (queuedTotal, actorTotal) = (pair.queued.seconds(.totalSeconds)!, pair.actor.seconds(.totalSeconds)!)
            return queuedStall < 0.1 * plain.screen.maxStallSeconds
                && actorStall <= VariantComparison.freezeAllowed(against: queuedStall)
                && actorTotal <= 1.2 * queuedTotal + 0.2
        }
        let (queued, actor) = firstPassing(passes: ratiosHold) { () -> Pair in
            // A try after the first starts from fresh database files, as the first did.
            removeDatabases(of: [.threaded, .async])
            return (run(.threaded), run(.async))
        }
        XCTAssertNil(queued.failure)
        XCTAssertNil(actor.failure)

        // Same result: every strategy's final table is identical all three ways.
        XCTAssertEqual(plain.details.digests.count, 4)
        XCTAssertEqual(plain.details.digests, queued.details.digests)
        XCTAssertEqual(plain.details.digests, actor.details.digests)
        for saved in [plain, queued, actor] {
            XCTAssertEqual(saved.details.results.map(\.rows), [10, 50_000, 50_000, 50_000], saved.name)
        }

        // The no-thread stall covers the write (and its 22 slow commits): the Screen could
        // not draw until it was done.
        let written = plain.details.results.map(\.seconds).reduce(0, +)
        XCTAssertGreaterThanOrEqual(written, 22 * 0.25)
        XCTAssertGreaterThanOrEqual(
            plain.screen.maxStallSeconds, 0.9 * written,
            "stall \(plain.screen.maxStallSeconds) s for \(written) s of writing")
        print(
            String(
                format:
                    "lesson06 triple: max stall no-thread %.3f s, threaded %.3f s, async %.3f s; total %.2f / %.2f / %.2f s",
                plain.screen.maxStallSeconds, queued.screen.maxStallSeconds, actor.screen.maxStallSeconds,
                plain.seconds(.totalSeconds)!, queued.seconds(.totalSeconds)!, actor.seconds(.totalSeconds)!))
        // The threaded one stays under a tenth of it.
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds,
            "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
        // The writer actor keeps the main thread as free as the writer queue (within 2x, with a
        // 50 ms floor so that two near-zero stalls do not flake), and takes no longer overall:
        // the same commits, each as slow, one writer either way.
        XCTAssertLessThanOrEqual(
            actor.screen.maxStallSeconds, VariantComparison.freezeAllowed(against: queued.screen.maxStallSeconds),
            "async stall \(actor.screen.maxStallSeconds) s vs threaded \(queued.screen.maxStallSeconds) s")
        XCTAssertLessThan(actor.screen.droppedFrames, plain.screen.droppedFrames)
        XCTAssertLessThanOrEqual(
            actor.seconds(.totalSeconds)!, 1.2 * queued.seconds(.totalSeconds)! + 0.2,
            "async total vs threaded total")
    }
}

/// The slow tier (`swift test --filter SlowTests`): what a cancel promises in lesson 06 (see
/// `Lesson06CancelTests`), at random points from a printed seed (`SAKUSAKU_SEED=N` reruns).
final class Lesson06CancelSlowTests: Lesson06RunCase {
    func testRandomCancelPointsCommitAndShowNothingAfterTheCancel() throws {
        var folder: ScratchFolder?
        defer { folder?.tearDown() }
        let found = try randomCancelProblems(
            "lesson 06 random cancels", Variant.allCases, within: 0...1.5,
            run: { variant, at in
                // Each run in a folder of its own.
                folder?.tearDown()
                let fresh = try ScratchFolder("lesson06-cancel")
                folder = fresh
                var settings = CancelJob.settings
                settings.cancelAfter = at
                return MainActor.assumeIsolated { SaveRun.perform(variant, settings: settings, folder: fresh) }
            },
            problems: { run, variant in
                // The no-thread save sees the tap only between two commits: no promptness asked.
                let committed =
                    run.seconds(.cancelHandledSeconds) == nil ? 0 : run.count(.rowsCommittedAfterCancel) ?? -1
                return run.cancelProblems(blocking: variant == .noThread)
                    + (committed == 0 ? [] : ["\(variant): \(committed) rows committed after the cancel"])
                    + (try CancelJob.tornFiles(variant, in: try XCTUnwrap(folder)))
            })
        XCTAssertEqual(found, [])
    }
}
