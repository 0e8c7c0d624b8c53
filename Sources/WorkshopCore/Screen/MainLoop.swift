import Foundation

/// Running the main thread the way an app's main thread runs: a loop that serves the main
/// queue and main timers. (`dispatchMain()` would serve the main queue too, but on Linux from
/// another OS thread, and it never returns; see Lessons/linux-notes.md.)
public enum MainLoop {
    /// Runs `RunLoop.main` on the calling (main) thread until `done()` is true or `timeout`
    /// seconds pass. Returns whether `done()` became true. `done` is checked on the main thread.
    @discardableResult
    public static func run(timeout: Double, until done: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !done() {
            let now = Date()
            if now >= deadline { return false }
            // Returns as soon as a main-queue block or timer ran; the 50 ms cap only bounds how
            // long a `done` that became true without waking the loop goes unnoticed.
            _ = RunLoop.main.run(mode: .default, before: min(deadline, now.addingTimeInterval(0.05)))
        }
        return true
    }
}

/// Traps unless called on the main queue: the "Main Thread Checker" of this workshop.
/// `dispatchPrecondition` holds both in a lesson binary (real main thread) and inside
/// `swift test`, where the main queue may be served by another thread.
@inline(__always)
public func requireMainQueue() {
    dispatchPrecondition(condition: .onQueue(.main))
}
