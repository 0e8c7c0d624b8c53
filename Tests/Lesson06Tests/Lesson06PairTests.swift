import XCTest
@testable import lesson06
import WorkshopCore

/// The same save through both variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (see linux-facts.md); every run is bounded by a timeout.
final class Lesson06PairTests: XCTestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory(prefix: "lesson06-pair")
    }

    override func tearDown() {
        scratch.remove()
    }

    /// 21 commits (10 one-row commits, 1 transaction, 10 batches), each made 0.25 s slower
    /// (a slow phone's storage): the no-thread save blocks the main thread for over 5 s.
    private func run(_ variant: Variant, rows: Int = 50_000, commitLatency: Double = 0.25) -> SaveRun {
        var settings = SaveRun.Settings()
        settings.job.rows = rows
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = rows / 10
        settings.job.commitLatencySeconds = commitLatency
        settings.timeoutSeconds = 120
        return SaveRun.perform(variant, settings: settings, directory: scratch)
    }

    func testBothVariantsSaveTheSameTablesAndOnlyTheThreadedOneKeepsTheScreenAlive() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)

        // Same result: every strategy's final table is identical both ways.
        XCTAssertEqual(plain.digests.count, 3)
        XCTAssertEqual(plain.digests, queued.digests)
        XCTAssertEqual(plain.results.map(\.rows), [10, 50_000, 50_000])
        XCTAssertEqual(queued.results.map(\.rows), [10, 50_000, 50_000])

        // The no-thread stall covers the write (and its 21 slow commits): the Screen could
        // not draw until it was done.
        let written = plain.results.map(\.seconds).reduce(0, +)
        XCTAssertGreaterThanOrEqual(written, 21 * 0.25)
        XCTAssertGreaterThanOrEqual(plain.screen.maxStallSeconds, 0.9 * written,
                                    "stall \(plain.screen.maxStallSeconds) s for \(written) s of writing")
        print(String(format: "lesson06 pair: max stall no-thread %.3f s, threaded %.3f s", plain.screen.maxStallSeconds,
                     queued.screen.maxStallSeconds))
        // The threaded one stays under a tenth of it.
        XCTAssertLessThan(queued.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds,
                          "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
    }

    func testTheMainThreadReadsOnlyWholeBatches() {
        let queued = run(.threaded, rows: 40_000, commitLatency: 0)
        XCTAssertNil(queued.failure)
        XCTAssertGreaterThan(queued.countReadsOnMain, 10, "the main thread kept reading while the writer wrote")
        XCTAssertEqual(queued.tornReads, [], "a count from the middle of a transaction")
    }

    func testAFailingBatchIsReportedBothWaysAndEarlierBatchesStay() throws {
        for variant in [Variant.noThread, .threaded] {
            var settings = SaveRun.Settings()
            settings.job.rows = 30
            settings.job.perRowCommitRows = 5
            settings.job.batchRows = 10
            settings.timeoutSeconds = 30
            var batchedFile = ""
            let failed = SaveRun.perform(variant, settings: settings, directory: scratch) { _, databases in
                // Row 15, in the second batch, is refused by a trigger with its own message.
                batchedFile = databases[.multiRowBatches]!
                try SQLiteDatabase(path: batchedFile).execute("""
                    create trigger refuse before insert on tblA when new.id = '0000015'
                    begin select raise(abort, 'row 15 refused'); end
                    """)
            }
            XCTAssertEqual(failed.failure?.contains("row 15 refused"), true, "\(variant): \(failed.failure ?? "no failure")")
            XCTAssertEqual(failed.results.map(\.strategy), [.perRowCommit, .oneTransaction], "\(variant)")
            // Batch 1 (rows 1-10: 9 new, row 10 existed) is committed; nothing of batch 2.
            let rows = try SQLiteDatabase(path: batchedFile).query("select count(*), max(id) from tblA")
            XCTAssertEqual(rows, [[.integer(3 + 9), .text("0000030")]], "\(variant)")
            XCTAssertEqual(try SQLiteDatabase(path: batchedFile).query("select count(*) from tblA where id between '0000011' and '0000019'"),
                           [[.integer(0)]], "\(variant): a row of the failed batch was committed")
        }
    }

    func testTheWriterConnectionHonoursALoweredLimit() {
        var settings = SaveRun.Settings()
        settings.job.rows = 3_000
        settings.job.perRowCommitRows = 10
        settings.job.batchRows = 1_000
        settings.job.variableLimit = 7
        settings.timeoutSeconds = 60
        let queued = SaveRun.perform(.threaded, settings: settings, directory: scratch)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(queued.results.last?.rowsPerStatement, 2)
        XCTAssertEqual(queued.results.last?.commits, 3)
    }
}
