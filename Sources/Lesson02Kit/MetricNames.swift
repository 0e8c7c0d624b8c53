import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
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
