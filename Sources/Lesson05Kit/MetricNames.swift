import WorkshopCore

/// Lesson 05's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let cachedParseSeconds = MetricName("cachedParseSeconds")
    public static let cachedQueries = MetricName("cachedQueries")
    public static let fullDownloadsAfterFirstLaunch = MetricName("fullDownloadsAfterFirstLaunch")
    public static let httpCache = MetricName("httpCache")
    public static let maxAgeSeconds = MetricName("maxAgeSeconds")
    public static let naiveParseSeconds = MetricName("naiveParseSeconds")
    public static let naiveQueries = MetricName("naiveQueries")
    public static let orders = MetricName("orders")
    public static let ordersShownSeconds = MetricName("ordersShownSeconds")
    public static let preloadSeconds = MetricName("preloadSeconds")
    public static let products = MetricName("products")
    public static let firstLaunchRequests = MetricName("firstLaunchRequests")
    public static let firstLaunchWireBytes = MetricName("firstLaunchWireBytes")
    public static let firstLaunchSource = MetricName("firstLaunchSource")
    public static let secondLaunchRequests = MetricName("secondLaunchRequests")
    public static let secondLaunchWireBytes = MetricName("secondLaunchWireBytes")
    public static let secondLaunchSource = MetricName("secondLaunchSource")
    public static let nextDayLaunchRequests = MetricName("nextDayLaunchRequests")
    public static let nextDayLaunchWireBytes = MetricName("nextDayLaunchWireBytes")
    public static let nextDayLaunchSource = MetricName("nextDayLaunchSource")
}
