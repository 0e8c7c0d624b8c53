import Foundation

/// A measured value with its unit. The unit decides the JSON name's suffix and the table's format.
public enum Metric: Sendable, Equatable {
    case seconds(Double)
    case count(Int)
    case bytes(Int)
    case perSecond(Double)
    /// Milliseconds per second: Apple's hitch rate.
    case msPerSecond(Double)
    case ratio(Double)
    case text(String)

    var jsonValue: String {
        switch self {
        case .seconds(let s): jsonNumber(s, places: 4)
        case .count(let n), .bytes(let n): String(n)
        case .perSecond(let r), .msPerSecond(let r): jsonNumber(r, places: 1)
        case .ratio(let r): jsonNumber(r, places: 3)
        case .text(let t): jsonString(t)
        }
    }

    var tableValue: String {
        switch self {
        case .seconds(let s): String(format: "%.3f s", s)
        case .count(let n): String(n)
        case .bytes(let n): "\(n) B"
        case .perSecond(let r): String(format: "%.0f /s", r)
        case .msPerSecond(let r): String(format: "%.1f ms/s", r)
        case .ratio(let r): String(format: "%.2fx", r)
        case .text(let t): t
        }
    }
}

/// One variant's results, metrics in the order they should be read.
public struct VariantResult: Sendable {
    public var name: String
    public var metrics: [(MetricName, Metric)]
    /// Why the variant did not finish (in the JSON as "failure"); nil when it did.
    public var failure: String?
    public init(name: String, metrics: [(MetricName, Metric)], failure: String? = nil) {
        self.name = name
        self.metrics = metrics
        self.failure = failure
    }
    public subscript(metric: MetricName) -> Metric? { metrics.first { $0.0 == metric }?.1 }
    public func seconds(_ metric: MetricName) -> Double? {
        if case .seconds(let s)? = self[metric] { return s }
        return nil
    }
    public func count(_ metric: MetricName) -> Int? {
        switch self[metric] {
        case .count(let n)?, .bytes(let n)?: n
        default: nil
        }
    }
}

/// The end of every lesson run: a side-by-side table for people, one JSON document for scripts.
public struct LessonReport: Sendable {
    public var lesson: String
    public var title: String
    public var parameters: [(MetricName, Metric)]
    public var variants: [VariantResult]
    /// One line on what the numbers mean.
    public var takeaway: String

    public init(
        lesson: String, title: String, parameters: [(MetricName, Metric)],
        variants: [VariantResult], takeaway: String
    ) {
        self.lesson = lesson
        self.title = title
        self.parameters = parameters
        self.variants = variants
        self.takeaway = takeaway
    }

    /// The design note's JSON shape, keys in a stable order.
    public var json: String {
        func object(_ pairs: [(MetricName, Metric)], indent: String) -> String {
            "{" + pairs.map { "\(jsonString($0.0.rawValue)): \($0.1.jsonValue)" }.joined(separator: ", ") + "}"
        }
        let variantLines = variants.map {
            "    {\"name\": \(jsonString($0.name)), \"metrics\": \(object($0.metrics, indent: "      "))"
                + ($0.failure.map { ", \"failure\": \(jsonString($0))" } ?? "") + "}"
        }
        return """
            {"lesson": \(jsonString(lesson)), "title": \(jsonString(title)),
             "parameters": \(object(parameters, indent: "  ")),
             "variants": [
            \(variantLines.joined(separator: ",\n"))
             ],
             "takeaway": \(jsonString(takeaway))}
            """
    }

    /// Every metric any variant reported, in the order they first appear.
    public var metricNames: [MetricName] {
        var names: [MetricName] = []
        for variant in variants {
            for (name, _) in variant.metrics where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Metrics down the side, variants across the top.
    public var table: String {
        let rows = metricNames.map { name in [name.rawValue] + variants.map { $0[name]?.tableValue ?? "-" } }
        return TextTable(header: [localized("metric")] + variants.map(\.name), rows: rows).text
    }
}

func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func jsonNumber(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "null" }
    let text = String(format: "%.\(places)f", value)
    // Trim trailing zeros so 0.5000 prints as 0.5, and 3.0000 as 3.
    guard text.contains(".") else { return text }
    var trimmed = text
    while trimmed.hasSuffix("0") { trimmed.removeLast() }
    if trimmed.hasSuffix(".") { trimmed.removeLast() }
    return trimmed
}
