import Foundation

/// Exercise R1: a data race in a request counter.
///
/// Every lesson fetches on several queues at once. Here each fetch reports itself to one
/// shared `RequestCounter`, so the app can say "80 requests, 20 of them for /timeline".
/// `record` is called from many threads at the same time; `count(of:)` and `total` are read
/// when they are done.
///
/// As shipped, a plain run counts right almost every time, and yet two threads can change
/// `counts` at the same moment: a data race. The thread sanitizer sees it on every run.
/// Make the class safe with a lock (`NSLock`), a serial `DispatchQueue`, or by turning it
/// into an actor. Keep the three members' names and types (an actor's members are called
/// with `await`; the check does that).
///
/// Check your work:  swift run workshop check R1
// @unchecked Sendable promises the compiler that this class guards its own state, so the
// compiler stops checking. TODO: nothing guards `counts`. That broken promise is the bug.
public final class RequestCounter: @unchecked Sendable {
    private var counts: [String: Int] = [:]

    public init() {}

    /// Called from many threads at once, once per request.
    public func record(_ path: String) {
        counts[path, default: 0] += 1
    }

    public func count(of path: String) -> Int {
        counts[path] ?? 0
    }

    public var total: Int {
        counts.values.reduce(0, +)
    }
}
