import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// Why a fetch failed, in words a learner can act on.
public enum FetchError: Error, CustomStringConvertible, Equatable {
    case badURL(String)
    case httpStatus(Int, url: String)
    case timedOut(url: String, seconds: Double)
    case transport(String, url: String)
    case notHTTP(url: String)

    public var description: String {
        switch self {
        case .badURL(let text): "not a usable http(s) URL: '\(text)'"
        case .httpStatus(let code, let url): "the server answered HTTP \(code) for \(url)"
        case .timedOut(let url, let seconds): "no answer from \(url) within \(seconds) s"
        case .transport(let message, let url): "the connection to \(url) failed: \(message)"
        case .notHTTP(let url): "\(url) gave a response that is not HTTP"
        }
    }
}

/// Fetches bytes over HTTP with URLSession. Two styles, for the two variants of a lesson:
/// `fetchBlocking` waits on the calling thread (like the articles' `sendSynchronousRequest:`),
/// `fetch(_:completion:)` returns at once and calls back on a URLSession thread.
public final class HTTPFetcher: Sendable {
    public let session: URLSession
    public let timeout: Double

    public init(timeout: Double = 10) {
        let configuration = URLSessionConfiguration.ephemeral  // no shared cookies or cache
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 16
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else { throw FetchError.badURL(text) }
        return url
    }

    /// Starts the request and returns at once; `completion` runs on a URLSession thread.
    public func fetch(_ url: URL, completion: @escaping @Sendable (Result<Data, FetchError>) -> Void) {
        let task = session.dataTask(with: url) { [timeout] data, response, error in
            completion(Self.result(url: url, data: data, response: response, error: error, timeout: timeout))
        }
        task.resume()
    }

    /// Waits on this thread until the response is in (or the timeout passes).
    /// On the main thread this freezes the Screen: that is what the no-thread variants show.
    public func fetchBlocking(_ url: URL) throws(FetchError) -> Data {
        let outcome = Locked<Result<Data, FetchError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        fetch(url) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        // URLSession's own timeout fires first; this one only guards against a lost callback.
        if finished.wait(timeout: .now() + timeout + 5) == .timedOut {
            throw .timedOut(url: url.absoluteString, seconds: timeout)
        }
        return try outcome.current!.get()
    }

    private static func result(url: URL, data: Data?, response: URLResponse?, error: Error?,
                               timeout: Double) -> Result<Data, FetchError> {
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                return .failure(.timedOut(url: url.absoluteString, seconds: timeout))
            }
            return .failure(.transport(nsError.localizedDescription, url: url.absoluteString))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.notHTTP(url: url.absoluteString)) }
        guard (200..<300).contains(http.statusCode) else {
            return .failure(.httpStatus(http.statusCode, url: url.absoluteString))
        }
        return .success(data ?? Data())
    }
}
