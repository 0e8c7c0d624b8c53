import WorkshopCore

/// Lesson 01's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let cancel = MetricName("cancel")
    public static let cancelTapHandledSeconds = MetricName("cancelTapHandledSeconds")
    public static let cancelledItemDelivered = MetricName("cancelledItemDelivered")
    public static let completionOrder = MetricName("completionOrder")
    public static let firstRowsSeconds = MetricName("firstRowsSeconds")
    public static let maxConcurrentOperationsSeen = MetricName("maxConcurrentOperationsSeen")
    public static let slowLatencySeconds = MetricName("slowLatencySeconds")
}
