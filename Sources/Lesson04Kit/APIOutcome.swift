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

/// The answers of one round (the three APIs with one encoding), taken on main in the order they
/// come: which to show, when to cancel the rest, and which failure is the round's cause. The
/// threaded and async variants both use it, so the two name the same cause.
///
/// The cause is the first API in the article's order (friends, statuses, catalog) that really
/// failed, however the answers interleave: a server that is down, or one that redirects every
/// request to itself, fails all three, each at its own moment. So a failure does not cancel the
/// others at once: an API before it in that order may still fail too, and then that one is the
/// cause. The rest are cancelled as soon as the cause is certain, that is when every API before
/// the failed one has answered, and succeeded. A download we cancelled is never the cause.
@MainActor
final class RoundAnswers {
    private let apis: [XMLAPIs.API]
    private var answers: [String: APIOutcome] = [:]
    private var cancelled = false

    init(apis: [XMLAPIs.API] = XMLAPIs.all) { self.apis = apis }

    /// The cause, once it is certain: the first API in the order that failed for real, when every
    /// one before it has answered. Nil while it is not (or when nothing failed for real).
    var cause: APIOutcome? {
        for api in apis {
            guard let answer = answers[api.name] else { return nil }  // it may still fail: wait
            if answer.failure != nil, !answer.wasCancelled { return answer }
        }
        return nil
    }

    /// What to show for `outcome`, if anything: a success at once while nothing has failed; the
    /// cause when the round's last answer is in. Calls `cancelTheRest` once, when the cause is
    /// certain (not before: see the type's comment).
    func add(_ outcome: APIOutcome, onceTheCauseIsKnown cancelTheRest: () -> Void) -> APIOutcome? {
        answers[outcome.api.name] = outcome
        let failures = apis.compactMap { answers[$0.name] }.filter { $0.failure != nil }
        if !cancelled, cause != nil {
            cancelled = true
            cancelTheRest()
        }
        if failures.isEmpty { return outcome }
        guard answers.count == apis.count else { return nil }  // a failing round waits for its last answer
        // Only cancelled ones (the run itself was cancelled): the first of those, for a sentence.
        return cause ?? failures.first
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
