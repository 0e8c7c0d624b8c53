import WorkshopCore

/// This lesson's own figures and parameters, by the names its table and `--json` use.
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
