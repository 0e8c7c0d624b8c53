import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
extension MetricName {
    public static let cacheHits = MetricName("cacheHits")
    public static let chunkSize = MetricName("chunkSize")
    public static let contentHeightPoints = MetricName("contentHeightPoints")
    public static let estimatedHeightPoints = MetricName("estimatedHeightPoints")
    public static let estimatedHeightsUsed = MetricName("estimatedHeightsUsed")
    public static let rowsMeasured = MetricName("rowsMeasured")
    public static let tasks = MetricName("tasks")
}
