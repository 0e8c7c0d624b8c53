/// How the fixture server behaves: the "external API" over a slow, far-away link.
/// Every knob can also be set for one request with a query item of the same name,
/// e.g. `/timeline?latency=0.5&bandwidth=2000&fault=drop`.
public struct ServerKnobs: Sendable, Equatable {
    /// Seconds to wait before answering (query: `latency`).
    public var latencySeconds: Double
    /// Bytes per second for the response; 0 means no limit (query: `bandwidth`).
    public var bandwidthBytesPerSecond: Int
    /// Compress with gzip when the request accepts it (query: `gzip=0|1`).
    public var gzip: Bool
    /// Send an ETag and answer a matching If-None-Match with 304 Not Modified.
    public var etags: Bool
    /// When set, send `Cache-Control: max-age=N`.
    public var maxAgeSeconds: Int?

    public init(latencySeconds: Double = 0, bandwidthBytesPerSecond: Int = 0, gzip: Bool = true,
                etags: Bool = true, maxAgeSeconds: Int? = nil) {
        self.latencySeconds = latencySeconds
        self.bandwidthBytesPerSecond = bandwidthBytesPerSecond
        self.gzip = gzip
        self.etags = etags
        self.maxAgeSeconds = maxAgeSeconds
    }
}

/// What can go wrong with a response, on purpose (query: `fault=...`).
public enum Fault: Sendable, Equatable, CustomStringConvertible {
    /// Answer with this status code and a short text body (`fault=500`).
    case status(Int)
    /// Send the headers and half the body, then close the connection (`fault=drop`).
    case drop
    /// Send the headers, then nothing until the client gives up or the server stops (`fault=stall`).
    case stall
    /// Claim gzip but send bytes that are not a valid gzip stream (`fault=corrupt-gzip`).
    case corruptGzip
    /// Send a gzip stream cut off before its end (`fault=truncated-gzip`).
    case truncatedGzip
    /// Send only the first half of the JSON or XML document, as a complete response (`fault=malformed`).
    case malformed

    public init?(_ text: String) {
        switch text {
        case "drop": self = .drop
        case "stall": self = .stall
        case "corrupt-gzip": self = .corruptGzip
        case "truncated-gzip": self = .truncatedGzip
        case "malformed": self = .malformed
        default:
            guard let code = Int(text), (100...599).contains(code) else { return nil }
            self = .status(code)
        }
    }

    public var description: String {
        switch self {
        case .status(let code): "\(code)"
        case .drop: "drop"
        case .stall: "stall"
        case .corruptGzip: "corrupt-gzip"
        case .truncatedGzip: "truncated-gzip"
        case .malformed: "malformed"
        }
    }
}

/// What the server did, counted as it happened.
public struct ServerStats: Sendable, Equatable {
    public var requests = 0
    /// Bytes written to sockets: status line, headers and body, as they left the server.
    public var wireBytes = 0
    /// Responses sent with Content-Encoding: gzip.
    public var gzipResponses = 0
    /// 304 Not Modified answers.
    public var notModified = 0
    /// Requests per path, e.g. ["/timeline": 1, "/icons/alice.png": 1].
    public var requestsByPath: [String: Int] = [:]

    public init() {}

    /// Requests whose path starts with a prefix.
    public func requests(under prefix: String) -> Int {
        requestsByPath.filter { $0.key.hasPrefix(prefix) }.map(\.value).reduce(0, +)
    }
}

/// One line of the request log (`swift run fixture-server` prints these).
public struct RequestLogEntry: Sendable {
    public var method: String
    public var path: String
    public var status: Int
    public var wireBytes: Int
    public var gzip: Bool
    public var fault: Fault?
    public var seconds: Double

    public var line: String {
        var text = "\(method) \(path) -> \(status), \(wireBytes) bytes on the wire"
        if gzip { text += ", gzip" }
        if let fault { text += ", fault \(fault)" }
        return text + String(format: ", %.3f s", seconds)
    }
}
