import ArgumentParser
import Foundation

/// One of the three ways every lesson does its job.
///
/// `no-thread` does the job on the main thread (the freeze the articles start from),
/// `threaded` the articles' 2010 way (Operation, a run-loop thread, GCD queues), `async` the
/// same job in Swift 6 (async/await, tasks, actors). Three cases and no more, so a `switch`
/// over it needs no `default:` (which would mean a different variant in each lesson).
public enum Variant: String, CaseIterable, Sendable {
    case noThread = "no-thread"
    case threaded
    case async
}

/// What `--variant` selects: one variant, or `both` (the first two) or `all` (the three).
/// Kept apart from `Variant` so a run is always exactly one variant.
public enum VariantChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case noThread = "no-thread"
    case threaded
    case async
    case both
    case all

    /// The variants this choice stands for, in the order they run.
    public var variants: [Variant] {
        switch self {
        case .noThread: [.noThread]
        case .threaded: [.threaded]
        case .async: [.async]
        case .both: [.noThread, .threaded]
        case .all: Variant.allCases
        }
    }
}

/// The flags every lesson shares. Bad values end the program with a usage error naming the
/// flag and exit code 64 (swift-argument-parser's `ValidationError`).
public struct LessonOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            localized(
                "Which variant to run: no-thread, threaded, async, both (no-thread and threaded) or all (the three; the default)."
            ), valueName: "variant"))
    public var variant: VariantChoice = .all

    @Flag(
        help: ArgumentHelp(
            localized("Print one JSON document with every variant's metrics, and nothing else, on stdout.")))
    public var json = false

    @Option(
        help: ArgumentHelp(
            localized("Also draw the run's timeline as a picture (SVG) into this file, for slides."), valueName: "file")
    )
    public var svg: String?

    @Option(
        help: ArgumentHelp(
            localized("Also write one self-contained web page (picture, table, takeaway) into this file."),
            valueName: "file"))
    public var html: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                "Tap Cancel this many seconds into each variant's run (0-300), the way its era cancels: Operation cancel, a GCD cancel token, Task.cancel. The report then says what still happened after the cancel."
            ),
            valueName: "seconds"))
    public var cancelAfter: Double?

    @Option(
        name: .customLong("control-seconds"), parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                "Seconds to measure the machine before the lesson: the main loop's own lateness with no work (0-5, default 1)."
            ),
            valueName: "seconds", visibility: .hidden))
    public var controlSeconds: Double = 1

    /// Read before the parser by `Language.current` (so `--help` follows it too); declared here
    /// so the parser accepts it, checks it and shows it in `--help`.
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            localized(
                "Speak English or Japanese (default: Japanese when LC_ALL, LC_MESSAGES or LANG starts with ja). --json stays English."
            ),
            valueName: "en|ja"))
    public var language: Language?

    public init() {}

    public func validate() throws {
        if let cancelAfter, !(0...300).contains(cancelAfter) {
            throw ValidationError(
                localized(
                    format: "--cancel-after must be between 0 and 300 seconds (got %@)", cancelAfter.formattedSeconds))
        }
        guard (0...5).contains(controlSeconds) else {
            throw ValidationError(
                localized(format: "--control-seconds must be between 0 and 5 (got %@)", controlSeconds.formattedSeconds)
            )
        }
        for (flag, path) in [("--svg", svg), ("--html", html)] {
            guard let path else { continue }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError(
                    localized(format: "%1$@: the folder %2$@ does not exist (got '%3$@')", flag, folder, path))
            }
        }
    }

    /// Where the Screen draws: in place on a terminal, plain lines in a pipe, nowhere with `--json`.
    public var screenOutput: ScreenOutput { .automatic(json: json) }
}

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

/// The flags of lessons that talk to the "external API".
///
/// Negative numbers are read as values (`--latency -1` is a clear range error, not "missing
/// value"), and `--help` shows each flag's range and this lesson's default.
public struct NetworkOptions<Defaults: NetworkDefaults>: ParsableArguments, Sendable {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                format: "Seconds the fixture server waits before each response (0-60; default %@).",
                Defaults.defaultLatency.formattedSeconds),
            valueName: "seconds"))
    public var latency: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                format: "Bytes per second of the simulated link (0 = no limit; default %d).", Defaults.defaultBandwidth),
            valueName: "bytes-per-second"))
    public var bandwidth: Int?

    @Option(
        name: .customLong("timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                format: "Seconds one request may wait for an answer before it fails (0.1-300; default %@).",
                Defaults.defaultTimeout.formattedSeconds),
            valueName: "seconds"))
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
        if let latency, !(0...60).contains(latency) {
            throw ValidationError(
                localized(format: "--latency must be between 0 and 60 seconds (got %@)", latency.formattedSeconds))
        }
        if let bandwidth, bandwidth < 0 {
            throw ValidationError(
                localized(
                    format: "--bandwidth must be 0 (no limit) or a positive number of bytes per second (got %d)",
                    bandwidth))
        }
        guard (0.1...300).contains(timeout) else {
            throw ValidationError(
                localized(format: "--timeout must be between 0.1 and 300 seconds (got %@)", timeout.formattedSeconds))
        }
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
public struct FixtureEndpoint: Sendable, LessonSetup {
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
