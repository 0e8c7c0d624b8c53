/// The name of a figure in a lesson's table and `--json` (`"totalSeconds"`).
///
/// A type rather than a bare string so that a misspelt name does not compile: with strings,
/// `run.seconds("totalSecond")` read nil, and a `?? 0` turned it into a figure. The names are
/// part of the JSON API, so they stay English. The names several lessons share are declared
/// here; each lesson declares its own in its kit (`LessonNNKit/MetricNames.swift`), and a test
/// keeps every name declared once.
public struct MetricName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
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
