import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
extension MetricName {
    public static let cancel = MetricName("cancel")
    public static let cancelTapHandledSeconds = MetricName("cancelTapHandledSeconds")
    public static let cancelledItemDelivered = MetricName("cancelledItemDelivered")
    public static let completionOrder = MetricName("completionOrder")
    public static let firstRowsSeconds = MetricName("firstRowsSeconds")
    public static let maxConcurrentOperationsSeen = MetricName("maxConcurrentOperationsSeen")
    public static let slowLatencySeconds = MetricName("slowLatencySeconds")
}
