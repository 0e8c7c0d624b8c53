import WorkshopCore

/// How the fixture server behaves: the "external API" over a slow, far-away link.
/// Every knob can also be set for one request with a query item of the same name,
/// e.g. `/timeline?latency=0.5&bandwidth=2000&fault=drop`.
public struct ServerKnobs: Sendable, Equatable {
    /// Seconds to wait before answering (query: `latency`, capped at 60 s).
    public var latencySeconds: Double
    /// Bytes per second for the response; 0 means no limit (query: `bandwidth`).
    public var bandwidthBytesPerSecond: Int
    /// Compress with gzip when the request accepts it (query: `gzip=0|1`).
    public var gzip: Bool
    /// Send an ETag and answer a matching If-None-Match with 304 Not Modified.
    public var etags: Bool
    /// When set, send `Cache-Control: max-age=N`.
    public var maxAgeSeconds: Int?

    // MARK: Faults for the whole server (`fixture-server --fault KIND --fault-rate R`)

    /// A fault for every request (nil: none). `/health` is never hit, and a request's own
    /// `fault=` query item wins (`fault=none` asks for a healthy answer).
    public var fault: Fault?
    /// The share of requests `fault` hits, 0...1. Deterministic: the server counts the requests
    /// the fault may hit, and request number n gets it when `floor(n x rate)` goes up, so of
    /// every N such requests exactly `floor(N x rate)` are hit, evenly spread (0.3: the 4th,
    /// 7th, 10th, 14th, ...). See `Fault.hits(requestNumber:rate:)`.
    public var faultRate: Double

    // MARK: Limits (a server for a room)

    /// Connections served at once (at least 1). One more is answered `503 Service Unavailable`
    /// with `Retry-After: 1` and closed at once.
    public var maxConnections: Int
    /// Seconds a client has to send a whole request: counted from the connection opening, or
    /// from the end of the previous response on a kept-alive connection. A silent or dribbling
    /// client is closed after it (with 408 if it had started a request), and so is an idle
    /// kept-alive connection. At least 0.1 s. A client that stops reading a response for this
    /// long (at least 1 s) is dropped too.
    public var readTimeoutSeconds: Double
    /// Bytes of the request line and headers together; more gets `431 Request Header Fields Too Large`.
    public var maxHeadBytes: Int
    /// Bytes of a request body (Content-Length); more gets `413 Content Too Large`.
    public var maxBodyBytes: Int

    // MARK: Limits against a crowded or hostile network (nil or 0: none; see `room`)

    /// Connections one client address may hold at once, whatever they do (nginx's `limit_conn`):
    /// one more is closed at once, so one laptop cannot take the pool.
    public var maxConnectionsPerAddress: Int?
    /// Seconds a new connection has to send the first byte of its request: a connection that says
    /// nothing is closed after this, not after the whole read timeout. Nil: the read timeout.
    public var firstByteTimeoutSeconds: Double?
    /// Connections taken beyond `maxConnections` only for the server's priority paths (the
    /// board's reports, see `FixtureServer(priorityPaths:)`): one request each, which must come
    /// within the first-byte timeout; any other request there gets 503. So a pool held by
    /// whatever else (long polls, idle connections) still takes a report.
    public var reservedConnections: Int

    public static let defaultMaxConnections = 256
    public static let defaultMaxConnectionsPerAddress = 32
    public static let defaultFirstByteTimeoutSeconds = 2.0
    public static let defaultReservedConnections = 32

    /// The knobs with the limits for a room's network (what `fixture-server` uses): at most 32
    /// connections per address, 2 s for a new connection's first byte, 32 connections kept for
    /// the board's reports. The lessons' own servers (127.0.0.1, one client) have none of them.
    public static var room: ServerKnobs {
        var knobs = ServerKnobs()
        knobs.maxConnectionsPerAddress = defaultMaxConnectionsPerAddress
        knobs.firstByteTimeoutSeconds = defaultFirstByteTimeoutSeconds
        knobs.reservedConnections = defaultReservedConnections
        return knobs
    }
    public static let defaultReadTimeoutSeconds = 10.0
    public static let defaultMaxHeadBytes = 16 * 1024
    public static let defaultMaxBodyBytes = 1024 * 1024

    public init(
        latencySeconds: Double = 0, bandwidthBytesPerSecond: Int = 0, gzip: Bool = true,
        etags: Bool = true, maxAgeSeconds: Int? = nil,
        fault: Fault? = nil, faultRate: Double = 1,
        maxConnections: Int = ServerKnobs.defaultMaxConnections,
        readTimeoutSeconds: Double = ServerKnobs.defaultReadTimeoutSeconds,
        maxHeadBytes: Int = ServerKnobs.defaultMaxHeadBytes,
        maxBodyBytes: Int = ServerKnobs.defaultMaxBodyBytes,
        maxConnectionsPerAddress: Int? = nil, firstByteTimeoutSeconds: Double? = nil, reservedConnections: Int = 0
    ) {
        self.latencySeconds = latencySeconds
        self.bandwidthBytesPerSecond = bandwidthBytesPerSecond
        self.gzip = gzip
        self.etags = etags
        self.maxAgeSeconds = maxAgeSeconds
        self.fault = fault
        self.faultRate = faultRate
        self.maxConnections = maxConnections
        self.readTimeoutSeconds = readTimeoutSeconds
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.firstByteTimeoutSeconds = firstByteTimeoutSeconds
        self.reservedConnections = reservedConnections
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
    /// Answer `302 Found` pointing at the very same URL, every time (`fault=redirect-loop`): a
    /// client that follows redirects without a limit never ends (or, on Linux, traps).
    case redirectLoop

    /// Every kind by name, as `--fault` and `fault=` take them (a status is any code 100-599).
    public static let kindNames = [
        "500", "drop", "stall", "corrupt-gzip", "truncated-gzip", "malformed", "redirect-loop",
    ]
    /// For help texts and error messages.
    public static let kindsHelp =
        "500 (or any HTTP status 100-599), drop, stall, corrupt-gzip, truncated-gzip, malformed or redirect-loop"

    public init?(_ text: String) {
        switch text {
        case "drop": self = .drop
        case "stall": self = .stall
        case "corrupt-gzip": self = .corruptGzip
        case "truncated-gzip": self = .truncatedGzip
        case "malformed": self = .malformed
        case "redirect-loop": self = .redirectLoop
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
        case .redirectLoop: "redirect-loop"
        }
    }

    /// Whether the `requestNumber`-th request (1, 2, 3, ...) a server-wide fault may hit gets
    /// it at `rate` (0...1): yes when `floor(n x rate)` is more than `floor((n - 1) x rate)`.
    /// Integer arithmetic in millionths, so 0.3 hits exactly 3 of every 10, always the same ones.
    public static func hits(requestNumber n: Int, rate: Double) -> Bool {
        guard n > 0, rate > 0 else { return false }
        let perMillion = Int((min(rate, 1) * 1_000_000).rounded())
        return n * perMillion / 1_000_000 > (n - 1) * perMillion / 1_000_000
    }
}

/// What the server did, counted as it happened.
public struct ServerStats: Sendable, Equatable {
    /// Requests read in full (counted before the latency, whatever the answer).
    public var requests = 0
    /// Bytes written to sockets: status line, headers and body, as they left the server.
    public var wireBytes = 0
    /// Responses sent with Content-Encoding: gzip.
    public var gzipResponses = 0
    /// 304 Not Modified answers.
    public var notModified = 0
    /// Requests per path, e.g. ["/timeline": 1, "/icons/alice.png": 1].
    public var requestsByPath: [String: Int] = [:]

    /// Responses to `requests` written in full (a `drop` fault's half body, a `stall`, or a
    /// client that went away mid-response does not count).
    public var responses = 0
    /// Requests answered with a fault (the query item's, a path rule's or the server-wide one).
    public var faulted = 0
    /// Connections accepted, served or not.
    public var connections = 0
    /// Connections open right now (being served, idle between kept-alive requests, or silent).
    public var openConnections = 0
    /// Connections over `maxConnections`: answered 503 and closed.
    public var rejected = 0
    /// Connections from an address that held `maxConnectionsPerAddress` already: closed at once.
    public var overAddressLimit = 0
    /// Connections taken in the room kept for the priority paths (`reservedConnections`).
    public var reserved = 0
    /// Requests refused before routing: malformed (400), head too large (431), body too large
    /// (413), chunked body (501). The connection is closed after the answer.
    public var badRequests = 0
    /// Connections closed because no complete request came within the read timeout: silent
    /// clients, and clients that started a request and did not finish it (those get 408).
    public var readTimeouts = 0
    /// Kept-alive connections closed after the read timeout with no new request (normal).
    public var idleClosed = 0
    /// Responses that could not be written in full because the client went away or stopped reading.
    public var writeFailures = 0

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
    /// The client's IPv4 address, e.g. "127.0.0.1" or "192.168.1.23".
    public var client: String = "127.0.0.1"

    /// "GET /timeline -> 200, 283 bytes on the wire, gzip, 0.012 s", in the language the program speaks.
    public var line: String {
        var text = localized(format: "%1$@ %2$@ -> %3$d, %4$d bytes on the wire", method, path, status, wireBytes)
        if gzip { text += localized(", gzip") }
        if let fault { text += localized(format: ", fault %@", "\(fault)") }
        if !client.hasPrefix("127.") { text += localized(format: ", from %@", client) }
        return text + localized(format: ", %.3f s", seconds)
    }
}
