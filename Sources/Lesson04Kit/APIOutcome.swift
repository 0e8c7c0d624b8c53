import Foundation
import WorkshopCore
import WorkshopServer

/// One API fetched and parsed once: the article's four time stamps, the sizes, the records.
/// Times are seconds since the start of the round (the three APIs with one encoding).
public struct APIOutcome: Sendable {
    public let api: XMLAPIs.API
    public let encoding: Encoding
    public var startSeconds = 0.0
    public var responseSeconds = 0.0
    public var dataSeconds = 0.0
    public var parsedSeconds = 0.0
    /// Bytes on the wire for this response (status line, headers, body), counted by the
    /// server; nil until known (and with `--server`, where only `Content-Length` is known).
    public var wireBytes: Int?
    /// `Content-Length` of the response: the body as it travelled (compressed or not).
    public var wireBodyBytes = 0
    public var contentEncoding: String?
    /// The body after URLSession decoded it: the same bytes whichever encoding travelled.
    public var body = Data()
    public var records: [Record] = []
    /// Why this API gave no records: the download or the parse failed.
    public var failure: String?
    /// The download was cancelled (by us, when another API of the round had failed).
    public var wasCancelled = false

    /// Parses a finished download, on whatever thread calls it (that is the lesson's point),
    /// and stamps "parse complete" when done. `roundStart` is on the monotonic clock.
    static func parse(
        _ download: Result<DownloadTiming, FetchError>, api: XMLAPIs.API, encoding: Encoding, roundStart: Double
    ) -> APIOutcome {
        var outcome = APIOutcome(api: api, encoding: encoding)
        switch download {
        case .failure(let error):
            outcome.failure = "\(api.name): \(error)"
            if case .cancelled = error { outcome.wasCancelled = true }
        case .success(let timing):
            outcome.startSeconds = timing.startedAt - roundStart
            outcome.responseSeconds = timing.responseAt - roundStart
            outcome.dataSeconds = timing.dataAt - roundStart
            outcome.wireBodyBytes = timing.contentLength ?? timing.body.count
            outcome.contentEncoding = timing.contentEncoding
            outcome.body = timing.body
            do {
                outcome.records = try RecordParser.parse(timing.body, as: api)
            } catch {
                outcome.failure = "\(error)"
            }
        }
        outcome.parsedSeconds = monotonicSeconds() - roundStart
        return outcome
    }

    /// The wire size to report: the server's count when we have it, else Content-Length.
    public var reportedWireBytes: Int { wireBytes ?? wireBodyBytes }
}

extension Array where Element == APIOutcome {
    /// The failure to name when several APIs of a round failed together (a server that is down
    /// refuses all three at once): the first in the article's order, so that every run, and
    /// every variant, gives the same cause.
    var firstInTheArticlesOrder: APIOutcome? {
        let order = { (outcome: APIOutcome) in XMLAPIs.all.firstIndex(of: outcome.api) ?? 0 }
        return self.min { order($0) < order($1) }
    }
}

/// Bytes the fixture server wrote, per path and encoding, from its request log. URLSession
/// never shows the compressed bytes, so the honest count comes from the sender.
public final class WireLedger: Sendable {
    private let log = Locked<[RequestLogEntry]>([])  // Locked: the server logs from its own threads

    public init() {}

    /// Pass to `FixtureServer(onRequest:)`.
    public func record(_ entry: RequestLogEntry) {
        log.withLock { $0.append(entry) }
    }

    /// Bytes of the responses to `path` sent with (or without) gzip since the last `reset`.
    func wireBytes(path: String, gzip: Bool) -> Int? {
        let matching = log.current.filter { $0.path == path && $0.gzip == gzip }
        return matching.isEmpty ? nil : matching.map(\.wireBytes).reduce(0, +)
    }

    var responses: Int { log.current.count }
    func reset() { log.withLock { $0.removeAll() } }
}
