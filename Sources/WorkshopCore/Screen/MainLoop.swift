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

/// Traps unless called on the main queue: the "Main Thread Checker" of this workshop. On Linux
/// the trap prints no message: the process dies of SIGILL ("Illegal instruction"), and a
/// backtrace shows `_dispatch_assert_queue_fail`. `dispatchPrecondition` holds both in a lesson
/// binary (real main thread) and inside `swift test`, where the main queue may be served by
/// another thread.
@inline(__always)
public func requireMainQueue() {
    dispatchPrecondition(condition: .onQueue(.main))
}

/// Whether the calling code holds the main actor, asked the way its executor answers it and
/// without trapping: the answer `dispatchPrecondition(condition: .onQueue(.main))` and
/// `MainActor.assumeIsolated` give, for a check or a trace to record.
///
/// On Linux the main actor's executor is the main dispatch queue, and Swift guarantees that
/// queue, not the OS main thread. Dispatch counts two ways of holding it, and so does this:
/// - `mainQueue`: the current queue is the main queue (or targets it), whichever thread serves
///   it. Under `dispatchMain()`, in an async `main` after its first suspension (Swift issue
///   90851), in Swift Testing, main-queue work runs on another thread;
/// - `mainThread`: the OS main thread, which holds the main queue for as long as it serves it
///   (a lesson program's or a check program's main run loop, XCTest): also inside a
///   `queue.sync` it makes, where the current queue is that other queue, and the main queue
///   waits.
/// `Thread.isMainThread` alone answers "no" for the first, the current queue alone
/// (`getSpecific`) "no" for the second. Measured in the settings the lessons and checks run in
/// (XCTest, Swift Testing, a program's main run loop, an async `main`, `dispatchMain()`), both
/// traps agree with `isMain` (`MainPlaceTests`, `MainPlaceSlowTests`), with one exception: a
/// `sync` made by main-queue work on another thread (no main run loop) is main by neither
/// answer, though dispatch still holds the main queue for it. No check decides there: the
/// check programs turn the main run loop on the main thread.
public struct MainPlace: Sendable, Equatable, CustomStringConvertible {
    /// The current dispatch queue is the main queue, or a queue that targets it.
    public var mainQueue: Bool
    /// The calling thread is the process's main thread.
    public var mainThread: Bool

    public init(mainQueue: Bool, mainThread: Bool) {
        self.mainQueue = mainQueue
        self.mainThread = mainThread
    }

    /// Main by either answer, the main queue or the main thread: what the checks and the traces
    /// call "main", and what both traps accept (but for the one exception above).
    public var isMain: Bool { mainQueue || mainThread }

    /// Where the caller is now.
    public static var here: MainPlace {
        MainPlace(mainQueue: DispatchQueue.getSpecific(key: mainQueueKey) == true, mainThread: Thread.isMainThread)
    }

    /// Set on the main queue only, once: `getSpecific` finds it there (and on queues that target
    /// it) and nowhere else.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// "the main queue, on the main thread"; "another thread".
    public var description: String {
        switch (mainQueue, mainThread) {
        case (true, true): "the main queue, on the main thread"
        case (true, false): "the main queue, on another thread"
        case (false, true): "the main thread, in a sync on another queue"
        case (false, false): "another thread"
        }
    }
}
