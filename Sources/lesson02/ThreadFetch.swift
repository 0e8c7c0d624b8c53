import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif
import WorkshopCore

/// What a fetch tells its owner. Every one of these runs **on the network thread**.
struct FetchCallbacks: Sendable {
    var response: @Sendable (HTTPURLResponse) -> Void = { _ in }
    /// Each chunk as it comes off the network, in order.
    var data: @Sendable (Data) -> Void = { _ in }
    /// Exactly once, last: nil when the whole body arrived, else why not.
    var completion: @Sendable (FetchError?) -> Void = { _ in }
}

/// A fetch whose callbacks run on a `RunLoopThread`, the way NSURLConnection called its
/// delegate on the run loop of the thread that started it.
///
/// Linux URLSession never uses the caller's run loop: it calls its delegate on its own
/// delegate queue. So this bridge takes each delegate call there and posts it to the network
/// thread. If the thread has stopped, the post is refused: the event is dropped and the task
/// cancelled, so nothing of this fetch ever runs after `stop()`.
final class ThreadFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // @unchecked: `state` is a Locked; the rest is immutable
    let url: URL
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

    init(url: URL, on thread: RunLoopThread, timeout: Double = 15, callbacks: FetchCallbacks) {
        self.url = url
        self.thread = thread
        self.timeout = timeout
        self.callbacks = callbacks
    }

    /// Starts the request. Call it anywhere; the callbacks run on the network thread.
    func start() {
        let configuration = URLSessionConfiguration.ephemeral
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
    func cancel() { state.withLock { $0.task }?.cancel() }

    /// Events that arrived after the network thread stopped, and were thrown away.
    var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    /// Waits until URLSession is completely done with this fetch (tests use it).
    func waitUntilSessionDone(timeout: Double) -> Bool {
        if sessionDone.wait(timeout: .now() + timeout) == .timedOut { return false }
        sessionDone.signal()
        return true
    }

    /// Hands one event to the network thread, or drops it (and ends the task) if the thread is gone.
    private func deliver(_ event: @escaping @Sendable () -> Void) {
        if !thread.post(event) {
            let task = state.withLock { state -> URLSessionDataTask? in
                state.droppedEvents += 1
                return state.task
            }
            task?.cancel()
        }
    }

    // MARK: URLSessionDataDelegate (on the delegate queue, not the network thread)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
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

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // An error page is not the feed: keep it away from the parser (completion reports the status).
        guard (200..<300).contains(state.withLock({ $0.status })) else { return }
        let callbacks = callbacks
        deliver { callbacks.data(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (status, early) = state.withLock { ($0.status, $0.failedEarly) }
        let outcome = early ?? Self.failure(error, status: status, url: url, timeout: timeout)
        let callbacks = callbacks
        deliver { callbacks.completion(outcome) }
        // Break URLSession's strong hold on its delegate (us), or both would live forever.
        session.finishTasksAndInvalidate()
        state.withLock {
            $0.session = nil
            $0.task = nil
        }
        sessionDone.signal()
    }

    static func failure(_ error: Error?, status: Int, url: URL, timeout: Double) -> FetchError? {
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                return .timedOut(url: url.absoluteString, seconds: timeout)
            }
            return .transport(nsError.localizedDescription, url: url.absoluteString)
        }
        return (200..<300).contains(status) ? nil : .httpStatus(status, url: url.absoluteString)
    }
}
