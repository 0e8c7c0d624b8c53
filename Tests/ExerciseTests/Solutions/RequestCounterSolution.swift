import Foundation

/// Reference solution of exercise R1. Kept under Tests/ so a learner does not stumble on it.
/// The checks do not call it in this process: they compile this file with a small driver, once
/// plainly and once with `-sanitize=thread`, and run it in a child process (ExerciseR1Checks).
final class RequestCounter: @unchecked Sendable {  // @unchecked: `lock` guards `counts`
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init() {}

    func record(_ path: String) {
        lock.withLock { counts[path, default: 0] += 1 }
    }

    // Reads take the lock too: a read that overlaps a write is just as much a race.
    func count(of path: String) -> Int {
        lock.withLock { counts[path] ?? 0 }
    }

    var total: Int {
        lock.withLock { counts.values.reduce(0, +) }
    }
}
