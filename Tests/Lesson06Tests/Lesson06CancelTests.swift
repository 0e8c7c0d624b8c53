import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

@testable import Lesson06Kit

/// What a cancel promises in lesson 06: no transaction begins after the tap, the one under way
/// is rolled back (the files hold whole transactions only, and no row is committed after the
/// cancel), nothing is shown after it, and a save asked for in a task that is already
/// cancelled writes nothing. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N`).
///
/// What Lesson06CancelTests and Lesson06CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson06CancelCase: XCTestCase {
    var folders: [ScratchFolder] = []

    override func tearDown() {
        for folder in folders { folder.tearDown() }
    }

    /// A folder of this test's own (each run makes its files anew).
    func newFolder() throws -> ScratchFolder {
        let folder = try ScratchFolder("lesson06-cancel")
        folders.append(folder)
        return folder
    }

    /// A small job with slow commits (a slow phone's storage), so that a cancel lands mid-save.
    var settings: SaveRun.Settings {
        var settings = SaveRun.Settings()
        settings.job.rows = 20_000
        settings.job.perRowCommitRows = 20
        settings.job.batchRows = 2_000
        settings.job.commitLatencySeconds = 0.02
        settings.timeoutSeconds = 60
        return settings
    }

    func run(_ variant: Variant, cancelAfter: Double, in folder: ScratchFolder) -> VariantRun<SaveDetails> {
        var settings = settings
        settings.cancelAfter = cancelAfter
        return MainActor.assumeIsolated { SaveRun.perform(variant, settings: settings, folder: folder) }
    }

    /// Whole transactions only: every file's row count is one a commit boundary can leave.
    func tornFiles(_ variant: Variant, in folder: ScratchFolder) throws -> [String] {
        try SaveStrategy.allCases.compactMap { strategy in
            let database = try SQLiteDatabase(path: SaveRun.databasePath(variant, strategy, in: folder))
            let count = Int(try database.query("select count(*) from tblA").first?.first?.int ?? -1)
            return settings.job.consistentCounts(for: strategy).contains(count) ? nil : "\(strategy): \(count) rows"
        }
    }
}

final class Lesson06CancelTests: Lesson06CancelCase {
    /// Item 7 of the audit: a save asked for in an already-cancelled task committed 5,000 rows.
    /// Now it throws `CancellationError` before it writes anything.
    func testASaveInACancelledTaskWritesNothing() async throws {
        let folder = try newFolder()
        let path = folder.file("cancelled.sqlite")
        let job = settings.job
        try job.prepare(SQLiteDatabase(path: path))
        let writer = SaveWriter(trace: Trace())
        for strategy in SaveStrategy.allCases {
            let task = Task { () async throws -> BulkSave.Result in
                withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it asks for the save
                let (_, reporter) = AsyncStream.makeStream(of: Int.self)
                return try await writer.save(strategy, job: job, path: path, reportingTo: reporter)
            }
            do {
                _ = try await task.value
                XCTFail("\(strategy): the save went through in a cancelled task")
            } catch {
                XCTAssertTrue(error is CancellationError, "\(strategy): \(error)")
            }
        }
        let written = try SQLiteDatabase(path: path).query("select count(*) from tblA where message != 'old'")
        XCTAssertEqual(written.first?.first?.int, 0)
    }

    /// A cancel in the middle of a transaction rolls it back: the token is cancelled from
    /// another thread while `BulkSave` writes one big transaction.
    func testACancelMidTransactionRollsItBack() throws {
        let folder = try newFolder()
        let database = try SQLiteDatabase(path: folder.file("rollback.sqlite"))
        var job = settings.job
        job.rows = 200_000
        try job.prepare(database)
        let token = CancelToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { token.cancel() }
        XCTAssertThrowsError(try BulkSave.run(.oneTransaction, job: job, on: database, cancelToken: token) { _ in }) {
            XCTAssertTrue($0 is CancellationError, "\($0)")
        }
        let written = try database.query("select count(*) from tblA where message != 'old'")
        XCTAssertEqual(written.first?.first?.int, 0, "part of a cancelled transaction was committed")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson06CancelSlowTests: Lesson06CancelCase {
    func testRandomCancelPointsCommitAndShowNothingAfterTheCancel() throws {
        // Each run in a folder of its own, the last one made (`folders.last`).
        let found = try randomCancelProblems(
            "lesson 06 random cancels", Variant.allCases, within: 0...1.5,
            run: { run($0, cancelAfter: $1, in: try newFolder()) },
            problems: { run, variant in
                // The no-thread save sees the tap only between two commits: no promptness asked.
                let committed =
                    run.seconds(.cancelHandledSeconds) == nil ? 0 : run.count(.rowsCommittedAfterCancel) ?? -1
                return run.cancelProblems(blocking: variant == .noThread)
                    + (committed == 0 ? [] : ["\(variant): \(committed) rows committed after the cancel"])
                    + (try tornFiles(variant, in: try XCTUnwrap(folders.last)))
            })
        XCTAssertEqual(found, [])
    }
}
