import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// How the client asks for the body: the one header the article added.
public enum Encoding: String, CaseIterable, Sendable {
    /// `Accept-Encoding: identity`: "send the bytes as they are".
    case identity
    /// `Accept-Encoding: gzip`: the article's `[urlReq setValue:@"gzip" forHTTPHeaderField:@"Accept-Encoding"]`.
    case gzip
}

/// What one download saw, in seconds on the monotonic clock (`monotonicSeconds()`).
public struct DownloadTiming: Sendable {
    public var startedAt: Double
    /// Status line and headers in: the article's "レスポンス受信" (`didReceiveResponse:`).
    public var responseAt = 0.0
    /// The last byte in: the article's "データ受信" (`connectionDidFinishLoading:`).
    public var dataAt = 0.0
    /// The body after URLSession decoded it (it always decodes gzip, and cannot be stopped).
    public var body = Data()
    /// `Content-Length` as sent: the body's size *on the wire*, before decoding.
    public var contentLength: Int?
    /// `Content-Encoding` as sent ("gzip"), nil for identity.
    public var contentEncoding: String?
}

/// One GET through URLSession with a delegate, timed the way the article timed
/// NSURLConnection: when the response arrived, when the last data arrived.
///
/// Why a delegate and not `dataTask(with:completionHandler:)`: the completion handler fires
/// once, at the end, so "response received" would be invisible. Why URLSession and not a raw
/// socket: it is what an app uses, and it is what decodes gzip for you (see the lesson text;
/// `RawHTTP` + `Gzip` show the raw bytes in the tests and the exercise).
public final class TimedDownload: NSObject, URLSessionDataDelegate, Sendable {
    public typealias Completion = @Sendable (Result<DownloadTiming, FetchError>) -> Void

    private struct State {
        var timing = DownloadTiming(startedAt: monotonicSeconds())
        var status = 0
        var completion: Completion?
        /// One session per download: the session keeps its delegate until it is invalidated.
        var session: URLSession?
        /// `cancel()` came before `begin`: the request must never start.
        var cancelled = false
    }

    private let url: URL
    private let timeout: Double
    /// Decides each redirect, and makes a cancel mid-redirect safe (see `RedirectLimit`).
    private let redirects = RedirectLimit()
    /// Written by URLSession's delegate queue, read by whoever starts or cancels: hence the lock.
    private let state = Locked(State())

    private init(url: URL, timeout: Double) {
        self.url = url
        self.timeout = timeout
    }

    /// Starts the download and returns at once. `completion` runs once, on a URLSession thread.
    @discardableResult
    public static func start(
        _ url: URL, encoding: Encoding, timeout: Double, completion: @escaping Completion
    ) -> TimedDownload {
        let download = TimedDownload(url: url, timeout: timeout)
        download.begin(encoding: encoding, completion: completion)
        return download
    }

    /// The Swift 6 form: suspends the calling task (no thread waits meanwhile) until the last
    /// byte is in. Cancelling the task cancels the download, even one not yet started.
    public static func download(_ url: URL, encoding: Encoding, timeout: Double) async throws(FetchError)
        -> DownloadTiming
    {
        let download = TimedDownload(url: url, timeout: timeout)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Result<DownloadTiming, FetchError>, Never>) in
                download.begin(encoding: encoding) { done.resume(returning: $0) }
            }
        } onCancel: {
            download.cancel()
        }
        return try result.get()
    }

    /// Makes the session and starts the request, unless `cancel()` came first: then
    /// `completion` reports `.cancelled` at once. Checking and starting under one lock means a
    /// `cancel()` from another thread either stops the request or finds it never began.
    private func begin(encoding: Encoding, completion: @escaping Completion) {
        let started = state.withLock { s -> Bool in
            guard !s.cancelled else { return false }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            // No cache: on Linux a task that consults one can be cancelled after it has finished,
            // which traps inside FoundationNetworking ("a task that is not in the registry").
            configuration.urlCache = nil
            let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            var request = URLRequest(url: url)
            // Without this line URLSession (libcurl) sends "Accept-Encoding: deflate, gzip, br, zstd".
            request.setValue(encoding.rawValue, forHTTPHeaderField: "Accept-Encoding")
            s.completion = completion
            s.session = session
            s.timing.startedAt = monotonicSeconds()
            session.dataTask(with: request).resume()
            session.finishTasksAndInvalidate()
            return true
        }
        if !started { completion(.failure(.cancelled(url: url.absoluteString))) }
    }

    /// Waits on this thread for the download: the no-thread variant calls it on main.
    public static func fetchBlocking(
        _ url: URL, encoding: Encoding, timeout: Double
    ) throws(FetchError) -> DownloadTiming {
        try waitForCallback(url: url, timeout: timeout) {
            start(url, encoding: encoding, timeout: timeout, completion: $0)
        }
    }

    /// Stops the download if it is still running; its completion then reports `.cancelled`.
    public func cancel() {
        // Not once finished (`completion` is nil then): cancelling a finished task traps on Linux.
        let running = state.withLock { s -> URLSession? in
            s.cancelled = true
            return s.completion != nil ? s.session : nil
        }
        redirects.cancel { running?.invalidateAndCancel() }
    }

    // MARK: URLSessionDataDelegate (called on the session's delegate queue, never on main)

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let now = monotonicSeconds()
        let http = response as? HTTPURLResponse
        state.withLock { s in
            s.timing.responseAt = now
            s.status = http?.statusCode ?? 0
            // expectedContentLength is Content-Length as sent: the compressed size when gzipped.
            s.timing.contentLength = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
            s.timing.contentEncoding = http?.value(forHTTPHeaderField: "Content-Encoding")
        }
        completionHandler(.allow)
    }

    /// Without this method, a delegate session on Linux follows a server that redirects to
    /// itself until FoundationNetworking traps (see `RedirectLimit`).
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        redirects.decide(newRequest: request, completionHandler: completionHandler)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.timing.body.append(data) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let now = monotonicSeconds()
        let (timing, status, completion) = state.withLock { s in
            s.timing.dataAt = now
            defer { s.completion = nil }  // exactly once
            return (s.timing, s.status, s.completion)
        }
        let link = url.absoluteString
        if let error {
            completion?(.failure(FetchError(urlSessionError: error, url: link, timeout: timeout)))
        } else if (300..<400).contains(status) {
            completion?(.failure(.tooManyRedirects(url: link)))  // the redirects we refused to follow
        } else if !(200..<300).contains(status) {
            completion?(.failure(status == 0 ? .notHTTP(url: link) : .httpStatus(status, url: link)))
        } else {
            completion?(.success(timing))
        }
    }
}
