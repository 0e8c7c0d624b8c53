import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// The article's `FetchOperation`, made right for Swift 6 and Linux: an *asynchronous*
/// `Operation` that sends one request with URLSession and finishes when the answer is in.
///
/// An asynchronous operation's `start()` returns long before the work is done, so the queue
/// cannot tell "done" from "returned". The operation says so itself: it keeps its own state
/// and announces every change of `isExecuting` and `isFinished` with `willChangeValue` /
/// `didChangeValue`. Forget those calls and the queue never learns the operation finished:
/// its slot stays taken, its dependants never run (see `WhyNotify.swift`).
///
/// Observing: Linux has no KVO you can subscribe to, so results are delivered through
/// `onFinish` (exactly once, on a URLSession or queue thread) and the `completionBlock`.
// @unchecked: Foundation's `Operation` is Sendable the unchecked way, and Swift asks every subclass to say so
// again. `lock` guards `state`, `claimed`, `task` and `outcome`; `onFinish` and `gauge` are set before the
// operation is queued and only read after.
public class FetchOperation: Operation, @unchecked Sendable {
    /// Only ever moves forward: ready -> executing -> finished, or ready -> finished.
    enum State: Int { case ready, executing, finished }

    /// Builds the request when the operation starts (not when it is created): a get-user
    /// request needs the token that the login operation it depends on has only just parsed.
    private let makeRequest: @Sendable () throws -> URLRequest
    private let session: URLSession
    /// Called exactly once, when the operation finishes, with its outcome.
    public var onFinish: (@Sendable (Result<FetchedBody, FetchError>) -> Void)?
    /// Counts how many fetches are executing at once (the lesson's width metric); optional.
    public var gauge: ConcurrencyGauge?

    private let lock = NSLock()
    private var state = State.ready  // guarded by lock; what the queue reads
    private var claimed = State.ready  // guarded by lock; the furthest state a path has claimed
    private var task: URLSessionTask?  // guarded by lock
    private var outcome: Result<FetchedBody, FetchError>?  // guarded by lock

    public init(session: URLSession, makeRequest: @escaping @Sendable () throws -> URLRequest) {
        self.session = session
        self.makeRequest = makeRequest
        super.init()
    }

    public convenience init(session: URLSession, request: URLRequest) {
        self.init(session: session) { request }
    }

    /// The outcome once finished (nil before). A cancelled fetch ends with `.cancelled`, never data.
    public var result: Result<FetchedBody, FetchError>? { lock.withLock { outcome } }

    // MARK: The state the queue reads

    override public var isAsynchronous: Bool { true }
    override public var isExecuting: Bool { lock.withLock { state == .executing } }
    override public var isFinished: Bool { lock.withLock { state == .finished } }

    /// Moves to `newState` and announces it, if this caller is the first to ask for that
    /// move; returns the state it left, or nil when another path got there first (nothing is
    /// announced then: a second "isFinished" could make the queue finish it twice).
    /// The announcements happen outside the lock because the queue reacts to
    /// `didChangeValue` by reading `isFinished`, which takes the lock.
    private func move(to newState: State, with result: Result<FetchedBody, FetchError>? = nil) -> State? {
        let left = lock.withLock { () -> State? in
            guard newState.rawValue > claimed.rawValue else { return nil }
            defer { claimed = newState }
            return claimed
        }
        guard let left else { return nil }
        // Count before the queue hears of it: once it hears "finished", it may start the
        // next operation at once, on another thread.
        if newState == .executing { gauge?.enter() }
        if newState == .finished && left == .executing { gauge?.leave() }
        let keys =
            newState == .executing
            ? ["isExecuting"] : left == .executing ? ["isExecuting", "isFinished"] : ["isFinished"]
        for key in keys { willChangeValue(forKey: key) }
        lock.withLock {
            state = newState
            if let result { outcome = result }
            if newState == .finished { task = nil }
        }
        for key in keys.reversed() { didChangeValue(forKey: key) }
        return left
    }

    // MARK: Start, cancel, finish

    override public func start() {
        // The request first: when a step it depends on failed, that failure (passed on, nothing
        // sent) says more than "cancelled" would.
        let request: URLRequest
        do { request = try makeRequest() } catch {
            return finish(.failure(error as? FetchError ?? .badURL("\(error)")))
        }
        // A cancelled operation still gets `start()` from its queue: it must finish, at once.
        let url = request.url?.absoluteString ?? name ?? "fetch"
        if isCancelled { return finish(.failure(.cancelled(url: url))) }
        // Refuse a second start (or a start after finishing): only one path leaves `.ready`.
        guard move(to: .executing) != nil else { return }

        let task = FetchedBody.load(request, session: session) { [weak self] result in self?.finish(result) }
        // Store the task and resume it under the lock, so that `cancel()` either sees no task
        // (and we see `isCancelled` here) or sees a task that has been resumed.
        let cancelledMeanwhile = lock.withLock { () -> Bool in
            guard !isCancelled else { return true }
            self.task = task
            task.resume()
            return false
        }
        if cancelledMeanwhile { finish(.failure(.cancelled(url: url))) }
    }

    /// Cancels the request too. An executing fetch finishes now, not when the network gives up.
    override public func cancel() {
        super.cancel()
        let running = lock.withLock { state == .executing ? task : nil }
        running?.cancel()
        if let running { finish(.failure(.cancelled(url: running.originalRequest?.url?.absoluteString ?? "fetch"))) }
    }

    /// The one way out. Whoever gets here first wins (the URLSession callback, `cancel()` or
    /// `start()`); everyone else finds the operation finished and does nothing, so `onFinish`
    /// runs exactly once.
    private func finish(_ raw: Result<FetchedBody, FetchError>) {
        var result = raw
        if case .success(let body) = result {
            if isCancelled {
                result = .failure(.cancelled(url: body.url))  // a cancelled fetch delivers no data
            } else {
                do { try parseResponseBody(body) } catch { result = .failure(error) }
            }
        }
        guard move(to: .finished, with: result) != nil else { return }
        onFinish?(result)
    }

    /// The article's `parseResponseBody:` hook: subclasses override it to check or digest the
    /// body on the fetch's own thread. Throwing turns the fetch into a failure. The lesson
    /// prefers a separate `ParseOperation` (see ParseOperation.swift) for real parsing.
    public func parseResponseBody(_ body: FetchedBody) throws(FetchError) {}
}

/// The article's way of using the hook: a subclass overrides `parseResponseBody`. This one
/// only makes sure the body is JSON before anyone parses it, so a wrong answer (an HTML
/// error page from a proxy, say) fails the fetch itself, with a clear reason.
// @unchecked: restated, as for every `Operation` subclass; no state of its own, FetchOperation's lock guards the rest
public final class JSONFetchOperation: FetchOperation, @unchecked Sendable {
    override public func parseResponseBody(_ body: FetchedBody) throws(FetchError) {
        try body.requireJSON()
    }
}

/// A response body and what little we know about the response.
public struct FetchedBody: Sendable, Equatable {
    public var data: Data
    /// The HTTP status, or nil when the response was not HTTP (a `data:` URL).
    public var statusCode: Int?
    public var mimeType: String?
    public var url: String

    /// Makes (but does not resume) the task that sends `request`; `completion` runs once, on a
    /// URLSession thread. Both kinds of response are accepted: an `HTTPURLResponse` (status
    /// checked) and a plain `URLResponse`, which is what a `data:` URL gives. Code that
    /// force-casts to `HTTPURLResponse` crashes on those: the Three20 file:// bug of 2010-04-29.
    static func load(
        _ request: URLRequest, session: URLSession,
        completion: @escaping @Sendable (Result<FetchedBody, FetchError>) -> Void
    ) -> URLSessionDataTask {
        session.dataTask(with: request) { data, response, error in
            completion(answer(to: request, data: data, response: response, error: error))
        }
    }

    /// What one answer to `request` means: a body, or why there is none. Shared by the
    /// callback style (`load`) and the async variant (`AsyncAccount`), so both judge alike.
    static func answer(
        to request: URLRequest, data: Data?, response: URLResponse?, error: (any Error)?
    ) -> Result<FetchedBody, FetchError> {
        let url = request.url?.absoluteString ?? "?"
        if let error {
            return .failure(FetchError(urlSessionError: error, url: url, timeout: request.timeoutInterval))
        }
        guard let response else { return .failure(.notHTTP(url: url)) }
        let status = (response as? HTTPURLResponse)?.statusCode
        if let status, !(200..<300).contains(status) { return .failure(.httpStatus(status, url: url)) }
        // Not HTTP (data:, and file: on Apple platforms): no status, no headers, just bytes.
        return .success(FetchedBody(data: data ?? Data(), statusCode: status, mimeType: response.mimeType, url: url))
    }

    /// The check `JSONFetchOperation` makes (the async variant makes it too): an API answer
    /// that is not JSON fails here, with a clear reason, before anyone parses it.
    func requireJSON() throws(FetchError) {
        guard mimeType == "application/json" else {
            throw .malformed(localized("expected JSON, got %@", mimeType ?? localized("no content type")), url: url)
        }
    }
}
