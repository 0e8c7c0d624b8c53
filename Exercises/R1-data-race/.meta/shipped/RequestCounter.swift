// Exercise R1: make a shared request counter safe with a lock, a serial queue or an actor.
// Check it: swift run workshop check R1
import Foundation

/// Counts requests per path, so the app can say "80 requests, 20 of them for /timeline".
/// Every fetch, on whichever queue it runs, calls `record`; the Screen reads `total` while
/// they do. As shipped, a plain run counts right almost every time, and yet two threads can
/// change `counts` at the same moment: a data race. The thread sanitizer sees it on every run.
/// Keep the three members' names and types (an actor's are called with `await`; the check does).
// TODO(1): `@unchecked Sendable` promises the compiler that this class guards its own state,
// so the compiler stops checking. Nothing guards `counts`: that broken promise is the bug.
public final class RequestCounter: @unchecked Sendable {
    private var counts: [String: Int] = [:]

    public init() {}

    /// Called from many threads at once, once per request.
    public func record(_ path: String) {
        // TODO(2): one thread at a time, please.
        counts[path, default: 0] += 1
    }

    // TODO(3): reads too: a read that overlaps a write is just as much a race.
    public func count(of path: String) -> Int {
        counts[path] ?? 0
    }

    public var total: Int {
        counts.values.reduce(0, +)
    }
}
