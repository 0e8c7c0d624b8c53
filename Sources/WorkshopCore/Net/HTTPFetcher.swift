import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// Fetches bytes over HTTP with URLSession. Three styles, for the three variants of a lesson:
/// `fetchBlocking` waits on the calling thread (like the articles' `sendSynchronousRequest:`),
/// `fetch(_:completion:)` returns at once and calls back on a URLSession thread, and the async
/// `fetch(_:)` suspends the calling task until the answer is in.
public final class HTTPFetcher: Sendable {
    public let session: URLSession
    public let timeout: Double

    public init(timeout: Double = 10) {
        let configuration = URLSessionConfiguration.ephemeral  // no shared cookies or cache
        // No URL cache: on Linux a task that consults one can be cancelled after it has finished,
        // which traps inside FoundationNetworking ("a task that is not in the registry").
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 16
        // No delegate, on purpose: without one, URLSession follows redirects itself (at most 20,
        // then NSURLErrorHTTPTooManyRedirects), and a cancel mid-redirect is safe; a delegate
        // session must guard its cancels (see `RedirectLimit`).
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { throw FetchError.badURL(text) }
        return url
    }

    /// Starts the request and returns at once; `completion` runs on a URLSession thread.
    /// With a `cancelToken`, a cancelled token sends nothing (completion gets `.cancelled` at
    /// once), and cancelling it later cancels the request in flight.
    public func fetch(
        _ url: URL, cancelToken: CancelToken? = nil, completion: @escaping @Sendable (Result<Data, FetchError>) -> Void
    ) {
        if cancelToken?.isCancelled == true { return completion(.failure(.cancelled(url: url.absoluteString))) }
        let task = session.dataTask(with: url) { [timeout] data, response, error in
            completion(Self.result(url: url, data: data, response: response, error: error, timeout: timeout))
        }
        cancelToken?.onCancel { task.cancel() }
        task.resume()
    }

    /// The Swift 6 way: suspends the calling task (holding no thread) until the response is
    /// in. Cancelling the task cancels the request (see `URLSession.answer(for:)`).
    public func fetch(_ url: URL) async throws(FetchError) -> Data {
        let answer = await session.answer(for: URLRequest(url: url))
        if answer.error is CancellationError || Task.isCancelled { throw .cancelled(url: url.absoluteString) }
        return try Self.result(
            url: url, data: answer.data, response: answer.response, error: answer.error, timeout: timeout
        ).get()
    }

    /// Waits on this thread until the response is in (or the timeout passes).
    /// On the main thread this freezes the Screen: that is what the no-thread variants show.
    /// With a `cancelToken`, a cancel stops the wait at once (see `fetch(_:cancelToken:completion:)`).
    public func fetchBlocking(_ url: URL, cancelToken: CancelToken? = nil) throws(FetchError) -> Data {
        try waitForCallback(url: url, timeout: timeout) { fetch(url, cancelToken: cancelToken, completion: $0) }
    }

    private static func result(
        url: URL, data: Data?, response: URLResponse?, error: Error?,
        timeout: Double
    ) -> Result<Data, FetchError> {
        if let error { return .failure(FetchError(urlSessionError: error, url: url.absoluteString, timeout: timeout)) }
        guard let http = response as? HTTPURLResponse else { return .failure(.notHTTP(url: url.absoluteString)) }
        guard (200..<300).contains(http.statusCode) else {
            return .failure(.httpStatus(http.statusCode, url: url.absoluteString))
        }
        return .success(data ?? Data())
    }
}

/// Starts a job that calls back once, and waits on this thread for that callback: the
/// blocking call of a no-thread variant (like the articles' `sendSynchronousRequest:`).
/// The job's own timeout (URLSession's) should fire first; this wait, a little longer, only
/// guards against a callback that never comes.
public func waitForCallback<Value: Sendable>(
    url: URL, timeout: Double, _ start: (@escaping @Sendable (Result<Value, FetchError>) -> Void) -> Void
) throws(FetchError) -> Value {
    let outcome = Locked<Result<Value, FetchError>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    start { result in
        outcome.withLock { $0 = result }
        finished.signal()
    }
    let lostCallback = FetchError.timedOut(url: url.absoluteString, seconds: timeout)
    guard finished.wait(timeout: .now() + timeout + 5) == .success, let result = outcome.current else {
        throw lostCallback
    }
    return try result.get()
}

/// What one request gave: the three values of URLSession's completion handler.
public struct URLAnswer: Sendable {
    public var data: Data?
    public var response: URLResponse?
    /// URLSession's error, or `CancellationError` when the awaiting task was cancelled.
    public var error: (any Error)?
}

extension URLSession {
    /// Awaits the answer to `request`; cancelling the awaiting task cancels the request.
    ///
    /// Why not `data(for:)`: on Linux cancelling it can deadlock. The task's cancellation calls
    /// `URLSessionTask.cancel()`, which waits for URLSession's work queue, while that queue may be
    /// resuming the same task with its answer (seen in lesson 01's tests: a task group's
    /// `cancelAll()` hung the main thread for good). Here the answer comes through the plain
    /// completion handler into a one-value `AsyncStream`, and the stream cancels the request
    /// only when nobody waits for it any more.
    ///
    /// A task that is already cancelled sends nothing: cancellation is checked before the
    /// request is made (a cancel after that may find it on the wire, and cancels it there).
    public func answer(for request: URLRequest) async -> URLAnswer {
        let cancelled = URLAnswer(data: nil, response: nil, error: CancellationError())
        if Task.isCancelled { return cancelled }
        let (answers, delivery) = AsyncStream.makeStream(of: URLAnswer.self)
        let task = dataTask(with: request) { data, response, error in
            delivery.yield(URLAnswer(data: data, response: response, error: error))
            delivery.finish()
        }
        delivery.onTermination = { ending in
            if case .cancelled = ending { task.cancel() }
        }
        task.resume()
        for await answer in answers where !Task.isCancelled { return answer }
        return cancelled
    }
}
