import WorkshopCore

/// Lesson 04's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
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
