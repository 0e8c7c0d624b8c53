import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// What a fetch tells its owner. Every one of these runs **on the network thread**.
public struct FetchCallbacks: Sendable {
    public var response: @Sendable (HTTPURLResponse) -> Void
    /// Each chunk as it comes off the network, in order.
    public var data: @Sendable (Data) -> Void
    /// Exactly once, last: nil when the whole body arrived, else why not.
    public var completion: @Sendable (FetchError?) -> Void

    public init(
        response: @escaping @Sendable (HTTPURLResponse) -> Void = { _ in },
        data: @escaping @Sendable (Data) -> Void = { _ in },
        completion: @escaping @Sendable (FetchError?) -> Void = { _ in }
    ) {
        self.response = response
        self.data = data
        self.completion = completion
    }
}

/// A fetch whose callbacks run on a `RunLoopThread`, the way NSURLConnection called its
/// delegate on the run loop of the thread that started it.
///
/// Linux URLSession never uses the caller's run loop: it calls its delegate on its own
/// delegate queue. So this bridge takes each delegate call there and posts it to the network
/// thread. If the thread has stopped, the post is refused: the event is dropped and the task
/// cancelled, so nothing of this fetch ever runs after `stop()`.
///
/// Sendable, checked: every stored property is a Sendable constant; what changes is in `state`
/// (a Locked).
public final class ThreadFetch: NSObject, URLSessionDataDelegate, Sendable {
    public let url: URL
    private let thread: RunLoopThread
    private let callbacks: FetchCallbacks
    private let timeout: Double

    private struct State {
        var session: URLSession?
        var task: URLSessionDataTask?
        var status = 200
        var failedEarly: FetchError?
        var droppedEvents = 0
        var sessionDone = false
    }
    /// Guards the task and what the URLSession side has seen (touched on URLSession's queue and by `cancel`).
    private let state = Locked(State())
    /// Signalled when URLSession has delivered its very last event for this fetch.
    private let sessionDone = DispatchSemaphore(value: 0)
    /// Decides each redirect, and makes a cancel mid-redirect safe (see `RedirectLimit`).
    private let redirects = RedirectLimit()

    /// `timeout`: seconds the fetch may go without hearing from the server (`--timeout`).
    public init(url: URL, on thread: RunLoopThread, timeout: Double = 10, callbacks: FetchCallbacks) {
        self.url = url
        self.thread = thread
        self.timeout = timeout
        self.callbacks = callbacks
    }

    /// Starts the request. Call it anywhere; the callbacks run on the network thread.
    public func start() {
        let configuration = URLSessionConfiguration.ephemeral
        // No URL cache: on Linux a task that consults one can be cancelled after it has finished,
        // which traps inside FoundationNetworking ("a task that is not in the registry").
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        // The delegate queue: where URLSession calls us. One at a time, in order.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "urlsession-delegate-queue"
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.dataTask(with: url)
        state.withLock {
            $0.session = session
            $0.task = task
        }
        task.resume()
    }

    /// Cancels the request; its completion (with an error) still comes, unless the thread stopped.
    /// Only through `redirects`: a cancel that lands while a redirect is being decided traps on Linux.
    public func cancel() {
        let task = state.withLock { $0.task }
        redirects.cancel { task?.cancel() }
    }

    /// Events that arrived after the network thread stopped, and were thrown away.
    public var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    /// Waits until URLSession is completely done with this fetch (tests use it).
    public func waitUntilSessionDone(timeout: Double) -> Bool {
        if sessionDone.wait(timeout: .now() + timeout) == .timedOut { return false }
        sessionDone.signal()
        return true
    }

    /// Hands one event to the network thread, or drops it (and ends the task) if the thread is gone.
    private func deliver(_ event: @escaping @Sendable () -> Void) {
        if !thread.post(event) {
            state.withLock { $0.droppedEvents += 1 }
            cancel()
        }
    }

    // MARK: URLSessionDataDelegate (on the delegate queue, not the network thread)

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            state.withLock { $0.failedEarly = .notHTTP(url: url.absoluteString) }
            completionHandler(.cancel)
            return
        }
        state.withLock { $0.status = http.statusCode }
        let callbacks = callbacks
        deliver { callbacks.response(http) }
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
        // An error page is not the feed: keep it away from the parser (completion reports the status).
        guard (200..<300).contains(state.withLock({ $0.status })) else { return }
        let callbacks = callbacks
        deliver { callbacks.data(data) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (status, early) = state.withLock { ($0.status, $0.failedEarly) }
        // Why the body is not all here, in words; nil when it is.
        var outcome = early
        if outcome == nil, let error {
            outcome = FetchError(urlSessionError: error, url: url.absoluteString, timeout: timeout)
        }
        if outcome == nil, (300..<400).contains(status) { outcome = .tooManyRedirects(url: url.absoluteString) }
        if outcome == nil, !(200..<300).contains(status) { outcome = .httpStatus(status, url: url.absoluteString) }
        let (callbacks, failure) = (callbacks, outcome)
        deliver { callbacks.completion(failure) }
        // Break URLSession's strong hold on its delegate (us), or both would live forever.
        session.finishTasksAndInvalidate()
        state.withLock {
            $0.session = nil
            $0.task = nil
        }
        sessionDone.signal()
    }
}
