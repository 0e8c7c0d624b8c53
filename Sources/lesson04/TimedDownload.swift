import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif
import WorkshopCore

/// How the client asks for the body: the one header the article added.
enum Encoding: String, CaseIterable, Sendable {
    /// `Accept-Encoding: identity`: "send the bytes as they are".
    case identity
    /// `Accept-Encoding: gzip`: the article's `[urlReq setValue:@"gzip" forHTTPHeaderField:@"Accept-Encoding"]`.
    case gzip
}

/// What one download saw, in seconds on the monotonic clock (`monotonicSeconds()`).
struct DownloadTiming: Sendable {
    var startedAt: Double
    /// Status line and headers in: the article's "レスポンス受信" (`didReceiveResponse:`).
    var responseAt: Double
    /// The last byte in: the article's "データ受信" (`connectionDidFinishLoading:`).
    var dataAt: Double
    /// The body after URLSession decoded it (it always decodes gzip, and cannot be stopped).
    var body: Data
    /// `Content-Length` as sent: the body's size *on the wire*, before decoding.
    var contentLength: Int?
    /// `Content-Encoding` as sent ("gzip"), nil for identity.
    var contentEncoding: String?
}

/// One GET through URLSession with a delegate, timed the way the article timed
/// NSURLConnection: when the response arrived, when the last data arrived.
///
/// Why a delegate and not `dataTask(with:completionHandler:)`: the completion handler fires
/// once, at the end, so "response received" would be invisible. Why URLSession and not a raw
/// socket: it is what an app uses, and it is what decodes gzip for you (see the lesson text;
/// `RawHTTP` + `Gzip` show the raw bytes in the tests and the exercise).
final class TimedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // @unchecked: `state` is a Locked
    typealias Completion = @Sendable (Result<DownloadTiming, FetchError>) -> Void

    private struct State {
        var timing: DownloadTiming
        var status = 0
        var completion: Completion?
    }

    private let url: URL
    private let state: Locked<State>

    private init(url: URL, completion: @escaping Completion) {
        self.url = url
        self.state = Locked(State(timing: DownloadTiming(startedAt: monotonicSeconds(), responseAt: 0, dataAt: 0, body: Data()),
                                  completion: completion))
    }

    /// Starts the download and returns at once. `completion` runs once, on a URLSession thread.
    static func start(_ url: URL, encoding: Encoding, timeout: Double, completion: @escaping Completion) {
        let download = TimedDownload(url: url, completion: completion)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        // One session per download: the session keeps its delegate until invalidated (below).
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        var request = URLRequest(url: url)
        // Without this line URLSession (libcurl) sends "Accept-Encoding: deflate, gzip, br, zstd".
        request.setValue(encoding.rawValue, forHTTPHeaderField: "Accept-Encoding")
        session.dataTask(with: request).resume()
        session.finishTasksAndInvalidate()
    }

    /// Waits on this thread for the download: the no-thread variant calls it on main.
    static func fetchBlocking(_ url: URL, encoding: Encoding, timeout: Double) throws(FetchError) -> DownloadTiming {
        let outcome = Locked<Result<DownloadTiming, FetchError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        start(url, encoding: encoding, timeout: timeout) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        // URLSession's own timeout fires first; this one only guards against a lost callback.
        if finished.wait(timeout: .now() + timeout + 5) == .timedOut {
            throw .timedOut(url: url.absoluteString, seconds: timeout)
        }
        return try outcome.current!.get()
    }

    // MARK: URLSessionDataDelegate (called on the session's delegate queue, never on main)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
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

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.timing.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let now = monotonicSeconds()
        let (timing, status, completion) = state.withLock { s in
            s.timing.dataAt = now
            defer { s.completion = nil }  // exactly once
            return (s.timing, s.status, s.completion)
        }
        let link = url.absoluteString
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                completion?(.failure(.timedOut(url: link, seconds: session.configuration.timeoutIntervalForRequest)))
            } else {
                completion?(.failure(.transport(nsError.localizedDescription, url: link)))
            }
        } else if !(200..<300).contains(status) {
            completion?(.failure(status == 0 ? .notHTTP(url: link) : .httpStatus(status, url: link)))
        } else {
            completion?(.success(timing))
        }
    }
}
