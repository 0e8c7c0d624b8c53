import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// Fetches over HTTP through an `HTTPDiskCache`, the way a browser would:
/// - a stored response still within its max-age is used with no request at all;
/// - an older one with an ETag is revalidated: If-None-Match, and a 304 (headers only) means
///   "yours is still good";
/// - otherwise (or when the server's ETag no longer matches) the whole body is downloaded.
/// Blocking, like `HTTPFetcher.fetchBlocking`: which thread waits is the caller's choice;
/// `cancel()` from any thread ends the wait at once. The async variant's `get` (AsyncLaunch.swift)
/// suspends instead, and shares `plan` and `finish` with this one.
public final class RevalidatingFetcher: Sendable {
    /// Where the answer came from.
    public enum Source: String, Sendable {
        case fresh = "cache, fresh (no request)"
        case revalidated = "cache, revalidated (304)"
        case downloaded = "download (200)"
    }

    public struct Outcome: Sendable {
        public var body: [UInt8]
        public var source: Source
        /// Requests this fetch sent: 0 or 1.
        public var requests: Int { source == .fresh ? 0 : 1 }
    }

    public let cache: HTTPDiskCache
    public let session: URLSession
    public let timeout: Double
    /// The wall clock, injectable so a lesson can play "the next day" without waiting for it.
    public let now: @Sendable () -> Date

    /// `timeout`: seconds a request may wait for its answer (the lesson's `--timeout`).
    public init(cache: HTTPDiskCache, timeout: Double, now: @escaping @Sendable () -> Date = { Date() }) {
        let configuration = URLSessionConfiguration.ephemeral
        // No URL cache: on Linux a task that consults one can be cancelled after it has finished,
        // which traps inside FoundationNetworking ("a task that is not in the registry").
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil  // the cache is ours; URLSession must pass a 304 through untouched
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
        self.cache = cache
        self.timeout = timeout
        self.now = now
    }

    /// Cancels the blocking `get`: a request in flight is stopped (its `get` throws `.cancelled`)
    /// and a later one is never sent. The session itself stays valid until `invalidate()`: a
    /// block that has still to make its request must not find it torn down under it.
    public let cancelToken = CancelToken()

    /// Stops a request still in flight, and every later one (see `cancelToken`).
    public func cancel() { cancelToken.cancel() }

    /// Tears the session down: call once nothing can use the fetcher any more (the launch has ended).
    public func invalidate() { session.finishTasksAndInvalidate() }

    public func get(_ url: URL) throws(FetchError) -> Outcome {
        switch plan(url) {
        case .reuse(let outcome): return outcome
        case .send(let request, let stored):
            let (status, headers, body) = try send(request)
            return try finish(url, stored: stored, status: status, headers: headers, body: body)
        }
    }

    /// What `get` does before the network: reuse a fresh stored response, or send a request.
    enum Plan {
        case reuse(Outcome)
        /// The request (with If-None-Match when the stored response has an ETag).
        case send(URLRequest, stored: CachedResponse?)
    }

    func plan(_ url: URL) -> Plan {
        let stored = cache.load(for: url)
        if let stored, stored.isFresh(at: now()) {
            return .reuse(Outcome(body: stored.body, source: .fresh))
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag = stored?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return .send(request, stored: stored)
    }

    /// What `get` does with the answer: a 304 keeps the stored body, a 200 is stored for next time.
    func finish(
        _ url: URL, stored: CachedResponse?, status: Int, headers: [String: String], body: [UInt8]
    ) throws(FetchError) -> Outcome {
        let etag = headers["etag"]
        let cacheControl = headers["cache-control"]?.lowercased() ?? ""
        let maxAge = Self.maxAge(cacheControl)

        if status == 304, var stored {
            // Still good: keep the body, restart its max-age, take any new validator.
            stored.storedAt = now()
            stored.maxAgeSeconds = maxAge ?? stored.maxAgeSeconds
            stored.etag = etag ?? stored.etag
            try? cache.store(stored, for: url)  // failing to store only costs a download later
            return Outcome(body: stored.body, source: .revalidated)
        }
        guard (200..<300).contains(status) else { throw .httpStatus(status, url: url.absoluteString) }
        if !cacheControl.contains("no-store"), etag != nil || maxAge != nil {
            try? cache.store(CachedResponse(etag: etag, maxAgeSeconds: maxAge, storedAt: now(), body: body), for: url)
        }
        return Outcome(body: body, source: .downloaded)
    }

    /// The response's headers, names lower-cased.
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }

    /// N from "max-age=N" (nil without one).
    public static func maxAge(_ cacheControl: String) -> Int? {
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "max-age", let seconds = Int(parts[1]), seconds >= 0 { return seconds }
        }
        return nil
    }

    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Sends one request and waits (bounded) for status, lower-cased headers and body.
    private func send(_ request: URLRequest) throws(FetchError) -> (Int, [String: String], [UInt8]) {
        let url = request.url?.absoluteString ?? "?"
        let response: Response = try waitForCallback(url: request.url ?? URL(fileURLWithPath: "/"), timeout: timeout) {
            done in
            // Before the request: a cancelled launch sends nothing.
            if cancelToken.isCancelled { return done(.failure(.cancelled(url: url))) }
            let task = session.dataTask(with: request) { [timeout] data, response, error in
                let result: Result<Response, FetchError>
                if let error {
                    result = .failure(FetchError(urlSessionError: error, url: url, timeout: timeout))
                } else if let http = response as? HTTPURLResponse {
                    result = .success(
                        Response(status: http.statusCode, headers: Self.headers(of: http), body: Array(data ?? Data())))
                } else {
                    result = .failure(.notHTTP(url: url))
                }
                done(result)
            }
            cancelToken.onCancel { task.cancel() }
            task.resume()
        }
        return (response.status, response.headers, response.body)
    }
}
