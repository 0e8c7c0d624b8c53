import Foundation
import WorkshopCore

/// The bulk job every variant does: upsert N rows into the article's tblA, some of whose keys
/// already exist (every tenth id was saved earlier with message 'old').
///
/// It is done four ways, one database file each, to compare their speed:
public enum SaveStrategy: String, CaseIterable, Sendable {
    /// One statement per row, no BEGIN: SQLite commits (and syncs to disk) after every row.
    case perRowCommit = "one row per commit"
    /// One BEGIN ... COMMIT around a prepared one-row statement run N times.
    case oneTransaction = "one transaction"
    /// Multi-row upserts sized from the variable limit, `batchRows` rows per transaction.
    case multiRowBatches = "multi-row batches"
    /// The answer of the article's time: `ON CONFLICT ... DO UPDATE` arrived only in SQLite
    /// 3.24.0 (2018), so an app of 2010-2015 ran an UPDATE for each row, then an
    /// INSERT OR IGNORE for it (which adds the row only when the UPDATE found none), all in
    /// one transaction. Same rows as the upsert, two statements per row.
    case updateThenInsert = "update, then insert or ignore"

    /// The JSON metric name of this strategy's speed.
    public var metricName: MetricName {
        switch self {
        case .perRowCommit: .perRowCommitRowsPerSecond
        case .oneTransaction: .oneTransactionRowsPerSecond
        case .multiRowBatches: .multiRowBatchesRowsPerSecond
        case .updateThenInsert: .updateThenInsertRowsPerSecond
        }
    }
}

public struct SaveJob: Sendable {
    /// Rows to upsert.
    public var rows = 100_000
    /// One row per commit is slow (a disk sync per row), so by default it does only the
    /// first rows of the job and its speed is reported from those; `--full` does them all.
    public var perRowCommitRows = 1_000
    /// ... and stops after this many seconds, whichever comes first (nil: no time limit).
    /// A disk sync takes 0.1 ms to 5 ms depending on the disk and how busy it is.
    public var perRowCommitBudgetSeconds: Double? = nil
    /// Rows per transaction in the multi-row strategy (the threaded Screen shows progress per commit).
    public var batchRows = 10_000
    /// Extra seconds every commit takes, to play a slow phone's flash storage (the iPhone 3G
    /// of the 2010-05-30 article needed more than 5 s for ~300 objects). 0: the real disk only.
    public var commitLatencySeconds = 0.0
    /// Lower the variable limit of the writer's connection (nil: leave SQLite's).
    public var variableLimit: Int?
    /// Every `seedEvery`-th id exists before the job starts.
    var seedEvery = 10

    public init() {}

    /// The job the lesson's flags ask for. One row per commit is slow, so unless `full`, it
    /// does only its first 1,000 rows, for at most 1.5 s.
    public init(rows: Int, full: Bool, batchRows: Int, variableLimit: Int?, commitLatency: Double) {
        self.rows = rows
        perRowCommitRows = full ? rows : 1_000
        perRowCommitBudgetSeconds = full ? nil : 1.5
        self.batchRows = batchRows
        self.variableLimit = variableLimit
        commitLatencySeconds = commitLatency
    }

    public func rows(for strategy: SaveStrategy) -> Int {
        strategy == .perRowCommit ? min(rows, perRowCommitRows) : rows
    }

    /// Rows per commit: what a reader can ever see change at once.
    func rowsPerCommit(for strategy: SaveStrategy) -> Int {
        switch strategy {
        case .perRowCommit: 1
        case .oneTransaction, .updateThenInsert: rows
        case .multiRowBatches: batchRows
        }
    }

    /// How often to report `committed`: every commit, but at most ~10 times per strategy.
    func shouldReport(_ written: Int, of strategy: SaveStrategy) -> Bool {
        let total = rows(for: strategy)
        let every = max(rowsPerCommit(for: strategy), total / 10)
        return written == total || written % every == 0
    }

    /// Text keys like the article's ('0000100'), zero-padded so they sort as numbers.
    public static func id(_ i: Int) -> String {
        let digits = String(i)
        return String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// Row `i` (1-based) of the job.
    public static func row(_ i: Int) -> [SQLValue] {
        [.text(id(i)), .text("message \(i)"), .integer(Int64(i % 2))]
    }

    var seededRows: Int { rows / seedEvery }

    /// Rows in the table after the first `written` rows of the job are committed.
    func count(afterWriting written: Int) -> Int {
        seededRows + written - written / seedEvery
    }

    /// Every count a reader may see for `strategy`: one per commit boundary, never one in
    /// the middle of a transaction.
    public func consistentCounts(for strategy: SaveStrategy) -> Set<Int> {
        let total = rows(for: strategy)
        let step = rowsPerCommit(for: strategy)
        var counts: Set<Int> = [count(afterWriting: total)]
        for written in stride(from: 0, to: total, by: step) { counts.insert(count(afterWriting: written)) }
        return counts
    }

    /// Creates the table and the rows that exist before the job (not timed).
    public func prepare(_ database: SQLiteDatabase) throws {
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute(ArticleSchema.table)
        let seed = try database.prepare("insert into tblA (id, message, flg) values (?, ?, ?)")
        try database.transaction {
            for i in stride(from: seedEvery, through: rows, by: seedEvery) {
                try seed.run([.text(Self.id(i)), "old", 0])
            }
        }
    }
}
