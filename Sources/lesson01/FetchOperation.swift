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
class FetchOperation: Operation, @unchecked Sendable {  // @unchecked: `lock` guards `state`, `claimed`, `task` and `outcome`; `onFinish` and `gauge` are set before the operation is queued and only read after
    /// Only ever moves forward: ready -> executing -> finished, or ready -> finished.
    enum State: Int { case ready, executing, finished }

    /// Builds the request when the operation starts (not when it is created): a get-user
    /// request needs the token that the login operation it depends on has only just parsed.
    private let makeRequest: @Sendable () throws -> URLRequest
    private let session: URLSession
    /// Called exactly once, when the operation finishes, with its outcome.
    var onFinish: (@Sendable (Result<FetchedBody, FetchFailure>) -> Void)?
    /// Counts how many fetches are executing at once (the lesson's width metric); optional.
    var gauge: ConcurrencyGauge?

    private let lock = NSLock()
    private var state = State.ready        // guarded by lock; what the queue reads
    private var claimed = State.ready      // guarded by lock; the furthest state a path has claimed
    private var task: URLSessionTask?      // guarded by lock
    private var outcome: Result<FetchedBody, FetchFailure>?  // guarded by lock

    init(session: URLSession, makeRequest: @escaping @Sendable () throws -> URLRequest) {
        self.session = session
        self.makeRequest = makeRequest
        super.init()
    }

    convenience init(session: URLSession, request: URLRequest) {
        self.init(session: session) { request }
    }

    /// The outcome once finished (nil before). A cancelled fetch ends with `.cancelled`, never data.
    var result: Result<FetchedBody, FetchFailure>? { lock.withLock { outcome } }

    // MARK: The state the queue reads

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    /// Moves to `newState` and announces it, if this caller is the first to ask for that
    /// move; returns the state it left, or nil when another path got there first (nothing is
    /// announced then: a second "isFinished" could make the queue finish it twice).
    /// The announcements happen outside the lock because the queue reacts to
    /// `didChangeValue` by reading `isFinished`, which takes the lock.
    private func move(to newState: State, with result: Result<FetchedBody, FetchFailure>? = nil) -> State? {
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
        let keys = newState == .executing ? ["isExecuting"] : left == .executing ? ["isExecuting", "isFinished"] : ["isFinished"]
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

    override func start() {
        // A cancelled operation still gets `start()` from its queue: it must finish, at once.
        if isCancelled {
            finish(.failure(.cancelled))
            return
        }
        let request: URLRequest
        do {
            request = try makeRequest()
        } catch {
            finish(.failure(error as? FetchFailure ?? .dependencyFailed("\(error)")))
            return
        }
        // Refuse a second start (or a start after finishing): only one path leaves `.ready`.
        guard move(to: .executing) != nil else { return }

        let task = session.dataTask(with: request) { [weak self] data, response, error in
            self?.finish(FetchedBody.interpret(url: request.url, data: data, response: response, error: error))
        }
        // Store the task and resume it under the lock, so that `cancel()` either sees no task
        // (and we see `isCancelled` here) or sees a task that has been resumed.
        let cancelledMeanwhile = lock.withLock { () -> Bool in
            guard !isCancelled else { return true }
            self.task = task
            task.resume()
            return false
        }
        if cancelledMeanwhile { finish(.failure(.cancelled)) }
    }

    /// Cancels the request too. An executing fetch finishes now, not when the network gives up.
    override func cancel() {
        super.cancel()
        let running = lock.withLock { state == .executing ? task : nil }
        running?.cancel()
        if running != nil { finish(.failure(.cancelled)) }
    }

    /// The one way out. Whoever gets here first wins (the URLSession callback, `cancel()` or
    /// `start()`); everyone else finds the operation finished and does nothing, so `onFinish`
    /// runs exactly once.
    private func finish(_ raw: Result<FetchedBody, FetchFailure>) {
        var result = raw
        if isCancelled { result = .failure(.cancelled) }  // a cancelled fetch delivers no data
        if case .success(let body) = result {
            do { try parseResponseBody(body) } catch { result = .failure(error) }
        }
        guard move(to: .finished, with: result) != nil else { return }
        onFinish?(result)
    }

    /// The article's `parseResponseBody:` hook: subclasses override it to check or digest the
    /// body on the fetch's own thread. Throwing turns the fetch into a failure. The lesson
    /// prefers a separate `ParseOperation` (see ParseOperation.swift) for real parsing.
    func parseResponseBody(_ body: FetchedBody) throws(FetchFailure) {}
}

/// The article's way of using the hook: a subclass overrides `parseResponseBody`. This one
/// only makes sure the body is JSON before anyone parses it, so a wrong answer (an HTML
/// error page from a proxy, say) fails the fetch itself, with a clear reason.
final class JSONFetchOperation: FetchOperation, @unchecked Sendable {  // @unchecked: no state of its own; FetchOperation's lock guards the rest
    override func parseResponseBody(_ body: FetchedBody) throws(FetchFailure) {
        guard body.mimeType == "application/json" else {
            throw .unparseable("expected JSON, got \(body.mimeType ?? "no content type")")
        }
    }
}

/// A response body and what little we know about the response.
struct FetchedBody: Sendable, Equatable {
    var data: Data
    /// The HTTP status, or nil when the response was not HTTP (a `data:` URL).
    var statusCode: Int?
    var mimeType: String?

    /// Turns URLSession's three optionals into a result. Accepts both response kinds: an
    /// `HTTPURLResponse` (status checked) and a plain `URLResponse`, which is what a `data:`
    /// URL gives. Code that force-casts to `HTTPURLResponse` crashes on those, which is the
    /// Three20 file:// bug of 2010-04-29.
    static func interpret(url: URL?, data: Data?, response: URLResponse?, error: Error?) -> Result<FetchedBody, FetchFailure> {
        let where_ = url?.absoluteString ?? "?"
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled { return .failure(.cancelled) }
            return .failure(.transport(code: nsError.code, message: nsError.localizedDescription, url: where_))
        }
        guard let response else { return .failure(.transport(code: 0, message: "no response", url: where_)) }
        if let http = response as? HTTPURLResponse {
            guard (200..<300).contains(http.statusCode) else { return .failure(.httpStatus(http.statusCode, url: where_)) }
            return .success(FetchedBody(data: data ?? Data(), statusCode: http.statusCode, mimeType: http.mimeType))
        }
        // Not HTTP (data:, and file: on Apple platforms): no status, no headers, just bytes.
        return .success(FetchedBody(data: data ?? Data(), statusCode: nil, mimeType: response.mimeType))
    }
}

/// Why a fetch (or a step that depends on one) produced no result.
enum FetchFailure: Error, Equatable, CustomStringConvertible {
    case cancelled
    case httpStatus(Int, url: String)
    case transport(code: Int, message: String, url: String)
    /// An operation this one depends on failed; its failure, in words.
    case dependencyFailed(String)
    case unparseable(String)

    var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .httpStatus(let code, let url): "HTTP \(code) from \(url)"
        case .transport(let code, let message, let url): "\(url): \(message) (NSURLErrorDomain \(code))"
        case .dependencyFailed(let why): "a step it depends on failed: \(why)"
        case .unparseable(let why): "unparseable response: \(why)"
        }
    }
}

/// Counts operations executing at once and remembers the most seen, from any thread.
final class ConcurrencyGauge: Sendable {
    private struct Counts { var now = 0, most = 0 }
    private let counts = Locked(Counts())  // a lock: enter/leave come from many threads
    func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
    func leave() { counts.withLock { $0.now -= 1 } }
    var most: Int { counts.current.most }
    var now: Int { counts.current.now }
}
