import Foundation
import Lesson01Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fixture server for one test with a URLSession to reach it, both ended when the test is
/// done with them.
final class AccountFixture: Sendable {
    let test: TestServer
    let session = HTTPFetcher(timeout: 10).session

    init(latency: Double = 0.02) throws {
        test = try TestServer(latency: latency)
    }

    deinit {
        session.invalidateAndCancel()
        test.stop()
    }

    var server: FixtureServer { test.server }

    func request(_ path: String) -> URLRequest { URLRequest(url: test.endpoint.url(path)) }

    var plan: AccountPlan { AccountPlan(endpoint: test.endpoint) }
}

/// Runs `operations` on a fresh queue of `width` and waits (at most `timeout` seconds) until
/// all of them are finished. Returns false on a timeout.
@discardableResult
func runOnQueue(_ operations: [Operation], width: Int, timeout: Double = 30) -> Bool {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = width
    queue.addOperations(operations, waitUntilFinished: false)
    let done = DispatchSemaphore(value: 0)
    queue.addBarrierBlock { done.signal() }  // runs once everything queued before it has finished
    return done.wait(timeout: .now() + timeout) == .success
}

/// Checks `condition` every few milliseconds until it holds or `timeout` passes. For
/// conditions nobody signals (a server counter); returns whether it held.
func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(2_000)
    }
    return true
}

/// Counts calls per key from any thread.
final class CallCounter: Sendable {
    private let counts = Locked<[String: Int]>([:])  // callbacks come from many threads
    func hit(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    subscript(key: String) -> Int { counts.current[key] ?? 0 }
    var all: [String: Int] { counts.current }
}

/// An ordered log of events from any thread.
final class EventLog: Sendable {
    private let events = Locked<[String]>([])  // appended from queue and URLSession threads
    func add(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.current }
    func index(of event: String) -> Int? { all.firstIndex(of: event) }
}

extension Result where Failure == FetchError {
    /// Whether this is a cancellation (whatever it names).
    var isCancelled: Bool {
        if case .failure(.cancelled) = self { return true }
        return false
    }
}
