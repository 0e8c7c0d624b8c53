import WorkshopCore

/// Lesson 07's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let cacheHits = MetricName("cacheHits")
    public static let chunkSize = MetricName("chunkSize")
    public static let contentHeightPoints = MetricName("contentHeightPoints")
    public static let estimatedHeightPoints = MetricName("estimatedHeightPoints")
    public static let estimatedHeightsUsed = MetricName("estimatedHeightsUsed")
    public static let rowsMeasured = MetricName("rowsMeasured")
    public static let tasks = MetricName("tasks")
}
