import Foundation
import WorkshopCore

/// Runs one strategy of the `SaveJob` on one connection: the code is the same whichever
/// thread calls it. Where it runs is the variants' business (NoThreadSave, ThreadedSave).
public enum BulkSave {
    public struct Result: Sendable {
        public var strategy: SaveStrategy
        public var rows: Int
        public var seconds: Double
        public var commits: Int
        public var rowsPerStatement: Int
        public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
    }

    static let upsertOneRow = """
        insert into tblA (id, message, flg) values (?, ?, ?)
        on conflict(id) do update set message = excluded.message, flg = excluded.flg
        """
    /// The period answer, before SQLite 3.24.0: update the row if it exists, then insert it
    /// unless it exists (after the update it does, so the insert is ignored).
    static let updateOneRow = "update tblA set message = ?, flg = ? where id = ?"
    static let insertUnlessExists = "insert or ignore into tblA (id, message, flg) values (?, ?, ?)"

    /// Writes `job`'s rows with `strategy`. `committed(rowsSoFar)` is called after each
    /// commit (on the calling thread); when it throws, the save stops there. A failing commit
    /// throws after rolling back only its own transaction: what was committed before stays.
    ///
    /// A cancel (`cancelToken`) is checked before every write: before a transaction begins and,
    /// atomically, at its COMMIT (see `commit(_:unlessCancelled:_:)`). A transaction under way
    /// at the cancel is rolled back, so after the cancel nothing more lands, and what landed
    /// before it is whole transactions only. The save then throws `CancellationError`.
    public static func run(
        _ strategy: SaveStrategy, job: SaveJob, on database: SQLiteDatabase, cancelToken: CancelToken = CancelToken(),
        committed reportCommitted: (Int) throws -> Void
    ) throws -> Result {
        // Every commit goes through here: the injected slow-storage latency, then the report.
        func committed(_ rows: Int) throws {
            if job.commitLatencySeconds > 0 { Thread.sleep(forTimeInterval: job.commitLatencySeconds) }
            try reportCommitted(rows)
        }
        if let limit = job.variableLimit { database.variableLimit = limit }
        let total = job.rows(for: strategy)
        let clock = Stopwatch()
        var commits = 0
        var rowsPerStatement = 1
        switch strategy {
        case .perRowCommit:
            // No BEGIN: each run is its own transaction, with its own sync to disk.
            let statement = try database.prepare(upsertOneRow)
            for i in 1...total {
                // Each statement is a commit of its own: the check and the write hold the token together.
                guard try cancelToken.unlessCancelled({ try statement.run(SaveJob.row(i)) }) != nil else {
                    throw CancellationError()
                }
                commits += 1
                try committed(i)
                if let budget = job.perRowCommitBudgetSeconds, clock.elapsed > budget { break }
            }
        case .oneTransaction:
            let statement = try database.prepare(upsertOneRow)
            try commit(database, unlessCancelled: cancelToken) {
                for i in 1...total {
                    // 100,000 rows take a while: a cancel rolls back now, not at the COMMIT.
                    if cancelToken.isCancelled { throw CancellationError() }
                    try statement.run(SaveJob.row(i))
                }
            }
            commits = 1
            try committed(total)
        case .updateThenInsert:
            let update = try database.prepare(updateOneRow)
            let insert = try database.prepare(insertUnlessExists)
            try commit(database, unlessCancelled: cancelToken) {
                for i in 1...total {
                    if cancelToken.isCancelled { throw CancellationError() }  // roll back now
                    let row = SaveJob.row(i)  // id, message, flg
                    try update.run([row[1], row[2], row[0]])
                    try insert.run(row)
                }
            }
            commits = 1
            try committed(total)
        case .multiRowBatches:
            let batcher = try UpsertBatcher(
                database: database, table: ArticleSchema.name, columns: ArticleSchema.columns, key: ArticleSchema.key,
                maxRowsPerStatement: job.batchRows)
            rowsPerStatement = batcher.rowsPerStatement
            commits = try writeInTransactions(
                (1...total).lazy.map(SaveJob.row), batchRows: job.batchRows,
                with: batcher, cancelToken: cancelToken, committed: committed)
        }
        // Rows actually written: one row per commit may have stopped early (its time budget).
        let rows = strategy == .perRowCommit ? commits : total
        return Result(
            strategy: strategy, rows: rows, seconds: clock.elapsed, commits: commits,
            rowsPerStatement: rowsPerStatement)
    }

    /// Upserts `rows` with `batcher`, `batchRows` rows per transaction; returns the commits.
    /// A failing row rolls back its own transaction only: the batches before it stay
    /// committed, and nothing after it is tried. `committed(rowsSoFar)` follows each commit.
    public static func writeInTransactions<Rows: Collection>(
        _ rows: Rows, batchRows: Int, with batcher: UpsertBatcher, cancelToken: CancelToken = CancelToken(),
        committed: (Int) throws -> Void
    ) throws -> Int
    where Rows.Element == [SQLValue] {
        var written = 0
        var commits = 0
        var pending = rows[...]
        while !pending.isEmpty {
            let batch = pending.prefix(batchRows)
            pending = pending.dropFirst(batch.count)
            try commit(batcher.database, unlessCancelled: cancelToken) { try batcher.write(batch) }
            written += batch.count
            commits += 1
            try committed(written)
        }
        return commits
    }

    /// One transaction that commits only if `token` is not cancelled. Checked before BEGIN (a
    /// cancelled save starts no transaction) and again at the COMMIT, under the token's lock:
    /// a cancel either comes first, and the whole transaction is rolled back, or waits for
    /// the COMMIT (a few milliseconds) and finds it landed whole. Never part of one.
    static func commit(_ database: SQLiteDatabase, unlessCancelled token: CancelToken, _ body: () throws -> Void)
        throws
    {
        guard !token.isCancelled else { throw CancellationError() }
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            guard try token.unlessCancelled({ try database.execute("COMMIT") }) != nil else {
                throw CancellationError()
            }
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The whole table as one number (FNV-1a of its `id|message|flg` lines in key order):
    /// equal digests, equal tables.
    public static func digest(of database: SQLiteDatabase) throws -> String {
        let text =
            try database.query(
                """
                select group_concat(id || '|' || ifnull(message, '') || '|' || ifnull(flg, ''), char(10))
                from (select * from tblA order by id)
                """
            ).first?.first?.string ?? ""
        return fnv1a(Array(text.utf8))
    }
}
