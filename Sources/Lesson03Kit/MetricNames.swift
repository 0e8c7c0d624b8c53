import WorkshopCore

/// Lesson 03's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
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
