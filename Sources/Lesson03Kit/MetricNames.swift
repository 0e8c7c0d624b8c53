import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
extension MetricName {
    public static let allIconsShownSeconds = MetricName("allIconsShownSeconds")
    public static let iconCache = MetricName("iconCache")
    public static let iconCacheHits = MetricName("iconCacheHits")
    public static let iconFailures = MetricName("iconFailures")
    public static let iconRequests = MetricName("iconRequests")
    public static let iconsPhaseSeconds = MetricName("iconsPhaseSeconds")
    public static let imageWidth = MetricName("imageWidth")
    public static let scroll = MetricName("scroll")
    public static let timelineShownSeconds = MetricName("timelineShownSeconds")
    public static let visibleRows = MetricName("visibleRows")
}
