import ArgumentParser
import Foundation
import WorkshopCore

/// The network defaults of one lesson; its `NetworkOptions<Self>` shows them in `--help`.
public protocol NetworkDefaults {
    /// Seconds the lesson's own fixture server waits before each response.
    static var defaultLatency: Double { get }
    /// Bytes per second of the simulated link (0 = no limit).
    static var defaultBandwidth: Int { get }
    /// Seconds one request may go without an answer before it counts as failed.
    static var defaultTimeout: Double { get }
}

extension NetworkDefaults {
    public static var defaultTimeout: Double { 10 }
}

/// A lesson's defaults are its contract's link (`LessonContract.Network`, in its kit).
extension NetworkDefaults where Self: LessonProgram {
    public static var defaultLatency: Double { link.latency }
    public static var defaultBandwidth: Int { link.bandwidth }
    public static var defaultTimeout: Double { link.timeout }

    private static var link: LessonContract.Network {
        guard let network = contract.network else {
            preconditionFailure("lesson\(number) takes the network flags, but its contract has no network")
        }
        return network
    }
}

/// The numbers the network flags take, for every program that has such a flag (a lesson's
/// `NetworkOptions`, `fixture-server`), and the network flags in a lesson's contract.
public enum NetworkFlags {
    public static let latency = FlagRange("--latency", 0...60.0, seconds: true)
    public static let bandwidth = FlagRange("--bandwidth", 0...)
    public static let timeout = FlagRange("--timeout", 0.1...300.0, seconds: true)

    public static let contract: [LessonContract.Flag] = [
        latency.contract, bandwidth.contract, timeout.contract,
        LessonContract.Flag(name: "--fault", refused: ["sometimes"]),
        LessonContract.Flag(name: "--server", refused: ["ftp://x"]),
    ]
}

/// The flags of lessons that talk to the "external API".
///
/// Negative numbers are read as values (`--latency -1` is a clear range error, not "missing
/// value"), and `--help` shows each flag's range and this lesson's default.
public struct NetworkOptions<Defaults: NetworkDefaults>: ParsableArguments, Sendable {
    @Option(
        NetworkFlags.latency, help: localized("Seconds the fixture server waits before each response"),
        default: Defaults.defaultLatency, valueName: "seconds")
    public var latency: Double?

    @Option(
        NetworkFlags.bandwidth, help: localized("Bytes per second of the simulated link"),
        note: localized("0 = no limit"),
        default: Defaults.defaultBandwidth, valueName: "bytes-per-second")
    public var bandwidth: Int?

    @Option(
        NetworkFlags.timeout, help: localized("Seconds one request may wait for an answer before it fails"),
        default: Defaults.defaultTimeout, valueName: "seconds")
    var timeoutFlag: Double?

    /// Seconds one request may wait (`--timeout`, or the lesson's default).
    public var timeout: Double { timeoutFlag ?? Defaults.defaultTimeout }

    @Option(
        help: ArgumentHelp(
            localized(
                "Make the server misbehave on every request: 500 (or any HTTP status), drop, stall, corrupt-gzip, truncated-gzip, malformed or redirect-loop."
            ),
            valueName: "kind"))
    public var fault: String?

    @Option(
        help: ArgumentHelp(
            localized("Use this server (e.g. one from `swift run fixture-server`) instead of starting one in-process."),
            valueName: "url"))
    public var server: String?

    public init() {}

    public func validate() throws {
        try NetworkFlags.latency.check(latency)
        try NetworkFlags.bandwidth.check(bandwidth)
        try NetworkFlags.timeout.check(timeoutFlag)
        if let fault, Fault(fault) == nil {
            throw ValidationError(
                localized(
                    format:
                        "--fault must be an HTTP status 100-599, drop, stall, corrupt-gzip, truncated-gzip, malformed or redirect-loop (got '%@')",
                    fault))
        }
        if let server {
            do { _ = try HTTPFetcher.url(server) } catch {
                throw ValidationError(
                    localized(format: "--server must be an http URL such as http://127.0.0.1:8080 (got '%@')", server))
            }
        }
    }

    /// Starts an in-process fixture server with these knobs, or points at `--server`.
    /// With `--server`, the latency and bandwidth given here are asked for per request
    /// (query items); without them, the server's own settings apply. `onRequest` sees every
    /// request the in-process server answers.
    public func makeEndpoint(onRequest: (@Sendable (RequestLogEntry) -> Void)? = nil) throws -> FixtureEndpoint {
        let knobs = ServerKnobs(
            latencySeconds: latency ?? Defaults.defaultLatency,
            bandwidthBytesPerSecond: bandwidth ?? Defaults.defaultBandwidth)
        var queryItems: [URLQueryItem] = []
        if let fault { queryItems.append(URLQueryItem(name: "fault", value: fault)) }
        if let server {
            if let latency { queryItems.append(URLQueryItem(name: "latency", value: String(latency))) }
            if let bandwidth { queryItems.append(URLQueryItem(name: "bandwidth", value: String(bandwidth))) }
            return FixtureEndpoint(
                baseURL: try HTTPFetcher.url(server), server: nil, knobs: knobs, timeoutSeconds: timeout,
                queryItems: queryItems, knobsAreTheServers: latency == nil && bandwidth == nil)
        }
        let fixture = FixtureServer(knobs: knobs, onRequest: onRequest)
        let url = try fixture.start()
        return FixtureEndpoint(
            baseURL: url, server: fixture, knobs: knobs, timeoutSeconds: timeout, queryItems: queryItems)
    }
}

/// Where a lesson sends its requests: its own fixture server or one given with `--server`,
/// and how long one request may take.
public struct FixtureEndpoint: Sendable, LessonSetup, RequestLedger {
    public let baseURL: URL
    /// The in-process server, when the lesson started one (nil with `--server`).
    public let server: FixtureServer?
    public let knobs: ServerKnobs
    /// Seconds one request may wait for an answer (`--timeout`).
    public let timeoutSeconds: Double
    /// Added to every request: a fault to show, or (with `--server`) the latency and bandwidth asked for.
    let queryItems: [URLQueryItem]
    /// With `--server` and no `--latency`/`--bandwidth`: `knobs` are only our defaults, not the server's.
    let knobsAreTheServers: Bool

    public init(
        baseURL: URL, server: FixtureServer?, knobs: ServerKnobs, timeoutSeconds: Double = 10,
        queryItems: [URLQueryItem] = [], knobsAreTheServers: Bool = false
    ) {
        self.baseURL = baseURL
        self.server = server
        self.knobs = knobs
        self.timeoutSeconds = timeoutSeconds
        self.queryItems = queryItems
        self.knobsAreTheServers = knobsAreTheServers
    }

    /// A URL on this endpoint for `path` (which may carry a query), with the endpoint's query items.
    public func url(_ path: String) -> URL {
        let text = baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
        return withKnobs(URL(string: text) ?? baseURL.appendingPathComponent(path))
    }

    /// The same URL, carrying the endpoint's query items (a fault; latency and bandwidth for `--server`).
    public func withKnobs(_ url: URL) -> URL {
        guard !queryItems.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        parts.queryItems = (parts.queryItems ?? []) + queryItems
        return parts.url ?? url
    }

    /// Requests served so far, or nil when the server is not ours (and we cannot count).
    public var requestsServed: Int? { server?.stats.requests }

    public var latencySeconds: Double { knobs.latencySeconds }

    /// Requests our server received at `monotonic` seconds or later (nil with `--server`).
    public func requestsReceived(since monotonic: Double) -> Int? { server?.requestsReceived(since: monotonic) }

    /// "latency 0.15 s per request, bandwidth 50000 B/s", or what we know of a `--server`.
    public var linkDescription: String {
        if knobsAreTheServers { return localized("that server's own latency and bandwidth") }
        let bandwidth =
            knobs.bandwidthBytesPerSecond == 0 ? localized("unlimited") : "\(knobs.bandwidthBytesPerSecond) B/s"
        return localized(
            format: "latency %1$@ s per request, bandwidth %2$@", knobs.latencySeconds.formattedSeconds, bandwidth)
            + (server == nil ? localized(", asked for per request") : "")
    }

    /// The parameters every network lesson reports.
    public var parameters: [(MetricName, Metric)] {
        var parameters: [(MetricName, Metric)] = []
        if !knobsAreTheServers {
            parameters += [
                (.latencySeconds, .seconds(knobs.latencySeconds)),
                (.bandwidthBytesPerSecond, .count(knobs.bandwidthBytesPerSecond)),
            ]
        }
        parameters.append((.timeoutSeconds, .seconds(timeoutSeconds)))
        if let fault = queryItems.first(where: { $0.name == "fault" })?.value {
            parameters.append((.fault, .text(fault)))
        }
        parameters.append((.server, .text(baseURL.absoluteString)))
        return parameters
    }

    public func tearDown() { server?.stop() }
}
