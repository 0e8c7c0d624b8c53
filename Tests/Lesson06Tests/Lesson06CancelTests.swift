import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

@testable import Lesson06Kit

/// What a cancel promises in lesson 06: no transaction begins after the tap, the one under way
/// is rolled back (the files hold whole transactions only, and no row is committed after the
/// cancel), nothing is shown after it, and a save asked for in a task that is already
/// cancelled writes nothing. Here what needs no main thread; `Lesson06CancelSlowTests` cancels
/// whole runs at random points.
@Suite struct Lesson06CancelTests {
    /// Item 7 of the audit: a save asked for in an already-cancelled task committed 5,000 rows.
    /// Now it throws `CancellationError` before it writes anything.
    @Test(arguments: SaveStrategy.allCases)
    func aSaveInACancelledTaskWritesNothing(_ strategy: SaveStrategy) async throws {
        let folder = try ScratchFolder("lesson06-cancel")
        defer { folder.tearDown() }
        let path = folder.file("cancelled.sqlite")
        let job = CancelJob.settings.job
        try job.prepare(SQLiteDatabase(path: path))
        let writer = SaveWriter(trace: Trace())
        let task = Task { () async throws -> BulkSave.Result in
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it asks for the save
            let (_, reporter) = AsyncStream.makeStream(of: Int.self)
            return try await writer.save(strategy, job: job, path: path, reportingTo: reporter)
        }
        await #expect(throws: CancellationError.self, "the save went through in a cancelled task") {
            try await task.value
        }
        let written = try SQLiteDatabase(path: path).query("select count(*) from tblA where message != 'old'")
        #expect(written.first?.first?.int == 0)
    }

    /// A cancel in the middle of a transaction rolls it back: the token is cancelled from
    /// another thread while `BulkSave` writes one big transaction.
    @Test func aCancelMidTransactionRollsItBack() throws {
        let folder = try ScratchFolder("lesson06-cancel")
        defer { folder.tearDown() }
        let database = try SQLiteDatabase(path: folder.file("rollback.sqlite"))
        var job = CancelJob.settings.job
        job.rows = 200_000
        try job.prepare(database)
        let token = CancelToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { token.cancel() }
        #expect(throws: CancellationError.self) {
            try BulkSave.run(.oneTransaction, job: job, on: database, cancelToken: token) { _ in }
        }
        let written = try database.query("select count(*) from tblA where message != 'old'")
        #expect(written.first?.first?.int == 0, "part of a cancelled transaction was committed")
    }
}

/// The cancels' job: small, with slow commits (a slow phone's storage), so that a cancel lands
/// mid-save; and what a cancelled save may leave.
enum CancelJob {
    static var settings: SaveRun.Settings {
        var settings = SaveRun.Settings()
        settings.job.rows = 20_000
        settings.job.perRowCommitRows = 20
        settings.job.batchRows = 2_000
        settings.job.commitLatencySeconds = 0.02
        settings.timeoutSeconds = 60
        return settings
    }

    /// Whole transactions only: every file's row count is one a commit boundary can leave
    /// (empty: every file holds whole transactions).
    static func tornFiles(_ variant: Variant, in folder: ScratchFolder) throws -> [String] {
        try SaveStrategy.allCases.compactMap { strategy in
            let database = try SQLiteDatabase(path: SaveRun.databasePath(variant, strategy, in: folder))
            let count = Int(try database.query("select count(*) from tblA").first?.first?.int ?? -1)
            return settings.job.consistentCounts(for: strategy).contains(count) ? nil : "\(strategy): \(count) rows"
        }
    }
}
