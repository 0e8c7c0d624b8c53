import WorkshopCore

/// Lesson 02's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let callbacksOffNetworkThread = MetricName("callbacksOffNetworkThread")
    public static let dataChunks = MetricName("dataChunks")
    public static let downloadSeconds = MetricName("downloadSeconds")
    public static let feedBytes = MetricName("feedBytes")
    public static let fetchCallbacks = MetricName("fetchCallbacks")
    public static let firstItemSeconds = MetricName("firstItemSeconds")
    public static let itemsBeforeDownloadEnded = MetricName("itemsBeforeDownloadEnded")
    public static let itemsShown = MetricName("itemsShown")
    public static let loopIterations = MetricName("loopIterations")
    public static let maxCallbackDelaySeconds = MetricName("maxCallbackDelaySeconds")
    public static let meanCallbackDelaySeconds = MetricName("meanCallbackDelaySeconds")
    public static let medianCallbackDelaySeconds = MetricName("medianCallbackDelaySeconds")
    public static let networkThreadCPUSeconds = MetricName("networkThreadCPUSeconds")
    public static let wakeUps = MetricName("wakeUps")
}
