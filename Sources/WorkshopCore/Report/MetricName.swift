/// The name of a figure in a lesson's table and `--json` (`"totalSeconds"`).
///
/// A type rather than a bare string so that a misspelt name does not compile: with strings,
/// `run.seconds("totalSecond")` read nil, and a `?? 0` turned it into a figure. The names are
/// part of the JSON API, so they stay English. Every name is declared here and
/// nowhere else, grouped by the lesson that reports it (a test keeps it so).
public struct MetricName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name made at run time, from parts (a strategy's or a launch's name).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

// MARK: Every lesson, and several lessons

extension MetricName {
    public static let bandwidthBytesPerSecond = MetricName("bandwidthBytesPerSecond")
    public static let cancelAtSeconds = MetricName("cancelAtSeconds")
    public static let cancelHandledSeconds = MetricName("cancelHandledSeconds")
    public static let controlMaxLateSeconds = MetricName("controlMaxLateSeconds")
    public static let droppedFrames = MetricName("droppedFrames")
    public static let fault = MetricName("fault")
    public static let firstContentSeconds = MetricName("firstContentSeconds")
    public static let hangSeconds = MetricName("hangSeconds")
    public static let hangs = MetricName("hangs")
    public static let hitchRateMsPerSecond = MetricName("hitchRateMsPerSecond")
    public static let items = MetricName("items")
    public static let latencySeconds = MetricName("latencySeconds")
    public static let mainThreadMaxStallSeconds = MetricName("mainThreadMaxStallSeconds")
    public static let requestsAfterCancel = MetricName("requestsAfterCancel")
    public static let requestsServed = MetricName("requestsServed")
    public static let rows = MetricName("rows")
    public static let rowsAfterCancel = MetricName("rowsAfterCancel")
    public static let server = MetricName("server")
    public static let stoppedAfterCancelSeconds = MetricName("stoppedAfterCancelSeconds")
    public static let timeoutSeconds = MetricName("timeoutSeconds")
    public static let totalSeconds = MetricName("totalSeconds")
    public static let width = MetricName("width")
}

// MARK: Lesson 01

extension MetricName {
    public static let cancel = MetricName("cancel")
    public static let cancelTapHandledSeconds = MetricName("cancelTapHandledSeconds")
    public static let cancelledItemDelivered = MetricName("cancelledItemDelivered")
    public static let completionOrder = MetricName("completionOrder")
    public static let firstRowsSeconds = MetricName("firstRowsSeconds")
    public static let maxConcurrentOperationsSeen = MetricName("maxConcurrentOperationsSeen")
    public static let slowLatencySeconds = MetricName("slowLatencySeconds")
}

// MARK: Lesson 02

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

// MARK: Lesson 03

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

// MARK: Lesson 04

extension MetricName {
    public static let apis = MetricName("apis")
    public static let decodedBodyBytes = MetricName("decodedBodyBytes")
    public static let gzipAllParsedSeconds = MetricName("gzipAllParsedSeconds")
    public static let gzipWireBytes = MetricName("gzipWireBytes")
    public static let gzipWireRatio = MetricName("gzipWireRatio")
    public static let identityAllParsedSeconds = MetricName("identityAllParsedSeconds")
    public static let identityWireBytes = MetricName("identityWireBytes")
    public static let recordsParsed = MetricName("recordsParsed")
}

// MARK: Lesson 05

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

// MARK: Lesson 06

extension MetricName {
    public static let batchCommits = MetricName("batchCommits")
    public static let batchRows = MetricName("batchRows")
    public static let commitLatencySeconds = MetricName("commitLatencySeconds")
    public static let compoundSelectLimit = MetricName("compoundSelectLimit")
    public static let countReadsOnMain = MetricName("countReadsOnMain")
    public static let perRowCommitRowsPerSecond = MetricName("perRowCommitRowsPerSecond")
    public static let oneTransactionRowsPerSecond = MetricName("oneTransactionRowsPerSecond")
    public static let multiRowBatchesRowsPerSecond = MetricName("multiRowBatchesRowsPerSecond")
    public static let updateThenInsertRowsPerSecond = MetricName("updateThenInsertRowsPerSecond")
    public static let perRowCommitRows = MetricName("perRowCommitRows")
    public static let rowsCommittedAfterCancel = MetricName("rowsCommittedAfterCancel")
    public static let rowsPerStatement = MetricName("rowsPerStatement")
    public static let sqliteVersion = MetricName("sqliteVersion")
    public static let tornCountReads = MetricName("tornCountReads")
    public static let variableLimit = MetricName("variableLimit")
}

// MARK: Lesson 07

extension MetricName {
    public static let cacheHits = MetricName("cacheHits")
    public static let chunkSize = MetricName("chunkSize")
    public static let contentHeightPoints = MetricName("contentHeightPoints")
    public static let estimatedHeightPoints = MetricName("estimatedHeightPoints")
    public static let estimatedHeightsUsed = MetricName("estimatedHeightsUsed")
    public static let rowsMeasured = MetricName("rowsMeasured")
    public static let tasks = MetricName("tasks")
}
