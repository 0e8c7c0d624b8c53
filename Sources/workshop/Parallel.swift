import Foundation
import WorkshopCore

/// Runs `work` for every index of `count`, `width` at a time on threads of their own, and
/// returns the results in order. For checks: each spends much of its time waiting (its child
/// processes, its fake network), so several at once finish sooner even on two cores.
func inParallel<Result: Sendable>(_ count: Int, width: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result?] {
    // The next index to take and the results so far: shared by the worker threads, hence the lock.
    let state = Locked((next: 0, results: [Result?](repeating: nil, count: count)))
    let done = DispatchGroup()
    for _ in 0..<min(max(1, width), count) {
        done.enter()
        Thread.detachNewThread {
            while true {
                let index = state.withLock { state -> Int? in
                    guard state.next < count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { break }
                let result = work(index)
                state.withLock { $0.results[index] = result }
            }
            done.leave()
        }
    }
    // Each piece of work has its own time limits (a check's compile and run); this only guards
    // against a lost thread.
    _ = done.wait(timeout: .now() + 3_600)
    return state.current.results
}

/// How many checks to run at once by default: twice the cores, 2 to 8. (A cold `verify` on 2
/// cores: 24 s with 2 at a time, 19.3 s with 3, 17.8 s with 4.)
var defaultCheckWidth: Int { min(8, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }
