import ArgumentParser
import Foundation

/// Which variant(s) of a lesson to run.
public enum Variant: String, CaseIterable, ExpressibleByArgument, Sendable {
    case noThread = "no-thread"
    case threaded
    case both

    public var selected: [Variant] { self == .both ? [.noThread, .threaded] : [self] }
}

/// The flags every lesson shares (see workshop-design.md, "The common lesson CLI").
/// Bad values end the program with a usage error naming the flag and exit code 64.
public struct LessonOptions: ParsableArguments, Sendable {
    @Option(help: "Which variant to run: no-thread, threaded or both.")
    public var variant: Variant = .both

    @Flag(help: "Print one JSON document with every variant's metrics, and nothing else, on stdout.")
    public var json = false

    public init() {}
}

/// The flags of lessons that talk to the "external API".
public struct NetworkOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Seconds the fixture server waits before each response.", valueName: "seconds"))
    public var latency: Double?

    @Option(help: ArgumentHelp("Bytes per second of the simulated link (0 = no limit).", valueName: "bytes-per-second"))
    public var bandwidth: Int?

    @Option(help: ArgumentHelp("Use this server (e.g. one from `swift run fixture-server`) instead of starting one in-process.", valueName: "url"))
    public var server: String?

    public init() {}

    public func validate() throws {
        if let latency, !(0...60).contains(latency) {
            throw ValidationError("--latency must be between 0 and 60 seconds (got \(latency))")
        }
        if let bandwidth, bandwidth < 0 {
            throw ValidationError("--bandwidth must be 0 (no limit) or a positive number of bytes per second (got \(bandwidth))")
        }
        if let server {
            do { _ = try HTTPFetcher.url(server) } catch {
                throw ValidationError("--server must be an http URL such as http://127.0.0.1:8080 (got '\(server)')")
            }
        }
    }

    /// Starts an in-process fixture server with these knobs, or points at `--server`.
    /// With `--server`, latency and bandwidth are asked for per request (query items).
    public func makeAPI(defaultLatency: Double, defaultBandwidth: Int) throws -> FixtureEndpoint {
        let knobs = ServerKnobs(latencySeconds: latency ?? defaultLatency,
                                bandwidthBytesPerSecond: bandwidth ?? defaultBandwidth)
        if let server {
            return FixtureEndpoint(baseURL: try HTTPFetcher.url(server), server: nil, knobs: knobs,
                                   knobsInQuery: latency != nil || bandwidth != nil)
        }
        let fixture = FixtureServer(knobs: knobs)
        let url = try fixture.start()
        return FixtureEndpoint(baseURL: url, server: fixture, knobs: knobs, knobsInQuery: false)
    }
}

/// Where a lesson sends its requests: its own fixture server or one given with `--server`.
public struct FixtureEndpoint: Sendable {
    public let baseURL: URL
    /// The in-process server, when the lesson started one (nil with `--server`).
    public let server: FixtureServer?
    public let knobs: ServerKnobs
    let knobsInQuery: Bool

    public init(baseURL: URL, server: FixtureServer?, knobs: ServerKnobs, knobsInQuery: Bool = false) {
        self.baseURL = baseURL
        self.server = server
        self.knobs = knobs
        self.knobsInQuery = knobsInQuery
    }

    /// A URL on this endpoint for `path` (which may carry a query), adding the latency and
    /// bandwidth as query items when the server is not ours to configure.
    public func url(_ path: String) -> URL {
        let text = baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
        return withKnobs(URL(string: text)!)
    }

    /// The same URL, carrying `latency` and `bandwidth` query items when the server is not
    /// ours (given with `--server`): the fixture server honours them per request.
    public func withKnobs(_ url: URL) -> URL {
        guard knobsInQuery, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.queryItems = (parts.queryItems ?? []) + [
            URLQueryItem(name: "latency", value: String(knobs.latencySeconds)),
            URLQueryItem(name: "bandwidth", value: String(knobs.bandwidthBytesPerSecond)),
        ]
        return parts.url ?? url
    }

    /// Requests served so far, or nil when the server is not ours (and we cannot count).
    public var requestsServed: Int? { server?.stats.requests }

    public func stop() { server?.stop() }
}
