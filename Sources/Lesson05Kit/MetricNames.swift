import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
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
}
