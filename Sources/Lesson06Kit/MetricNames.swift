import WorkshopCore

/// Lesson 06's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let batchCommits = MetricName("batchCommits")
    public static let batchRows = MetricName("batchRows")
    public static let commitLatencySeconds = MetricName("commitLatencySeconds")
    public static let compoundSelectLimit = MetricName("compoundSelectLimit")
    public static let countReadsOnMain = MetricName("countReadsOnMain")
    public static let perRowCommitRowsPerSecond = MetricName("perRowCommitRowsPerSecond")
    public static let oneTransactionRowsPerSecond = MetricName("oneTransactionRowsPerSecond")
    public static let multiRowBatchesRowsPerSecond = MetricName("multiRowBatchesRowsPerSecond")
    public static let updateThenInsertRowsPerSecond = MetricName("updateThenInsertRowsPerSecond")
    public static let perRowCommitRows = MetricName("perRowCommitRows")
    public static let rowsCommittedAfterCancel = MetricName("rowsCommittedAfterCancel")
    public static let rowsPerStatement = MetricName("rowsPerStatement")
    public static let sqliteVersion = MetricName("sqliteVersion")
    public static let tornCountReads = MetricName("tornCountReads")
    public static let variableLimit = MetricName("variableLimit")
}
