import Foundation
import WorkshopCore

/// Exercise 02's given half: a worker thread with its own run loop. Jobs posted from any
/// thread run on it, one at a time, in the order they were posted (a log writer, a
/// thumbnailer, a network thread...). The loop itself is the subclass's: `prepareLoop()`
/// once, then `runOnce()` until `stop()` asks it to end, with `loopWillEnd()` just before.
///
/// `post(_:)` wakes the loop the way that works on Linux: it adds a `Timer` that fires at once
/// to *this thread's* run loop. (`RunLoop.perform` alone never wakes a sleeping loop there.)
// @unchecked: `inbox` is a Locked; `stopping` (and a subclass's own state) is touched only on
// the worker thread; `thread` only by the owner, before the thread starts.
open class RunLoopWorker: @unchecked Sendable {
    private struct Inbox {
        var jobs: [@Sendable () -> Void] = []
        var runLoop: SharedRunLoop?
        var open = true
    }
    /// Guards what other threads touch: the queued jobs and this thread's run loop.
    private let inbox = Locked(Inbox())
    private let ready = DispatchSemaphore(value: 0)
    /// How many times the loop has gone round (`runOnce` returned), read by the checks from
    /// another thread: a loop that sleeps until there is work hardly turns while idle; one that
    /// polls turns at every poll, however busy the machine is.
    private let turns = Locked(0)
    private let exited = DispatchSemaphore(value: 0)
    /// Set by `stop()`'s job, read by the loop: both on the worker thread.
    private var stopping = false
    private var thread: Thread?

    public init() {}

    /// Starts the thread and returns once it can take jobs.
    public func start(name: String = "worker") {
        let thread = Thread { [self] in main() }
        thread.name = name
        self.thread = thread
        thread.start()
        // A new thread is running within microseconds; 10 s means something is badly wrong.
        let began = ready.wait(timeout: .now() + 10)
        precondition(began == .success, "the worker thread did not start within 10 s")
    }

    /// Queues `job` to run on the worker thread. Returns false if the thread is stopping.
    @discardableResult
    public func post(_ job: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard inbox.open, let runLoop = inbox.runLoop else { return false }
            inbox.jobs.append(job)
            // The wake-up timer: fires at once on the worker's run loop.
            runLoop.add(Timer(timeInterval: 0, repeats: false) { [weak self] _ in self?.runJobs() }, forMode: .default)
            return true
        }
    }

    /// Lets the jobs already posted run, then ends the thread. Returns true once the thread
    /// has left its loop, false if it has not within `timeout` seconds.
    @discardableResult
    public func stop(timeout: Double = 2) -> Bool {
        post { [self] in
            stopping = true
            loopWillEnd()
        }
        inbox.withLock { $0.open = false }
        if exited.wait(timeout: .now() + timeout) == .timedOut { return false }
        exited.signal()  // a second stop() returns at once
        return true
    }

    /// How many times the loop has gone round so far (`runOnce` returned).
    public var loopTurns: Int { turns.current }

    /// Called once on the worker thread, before the loop starts.
    open func prepareLoop() {}

    /// One trip around the loop, on the worker thread: runs what is due, then returns.
    open func runOnce() {}

    /// Called on the worker thread by `stop()`'s job, just before the loop should end.
    open func loopWillEnd() {}

    private func main() {
        prepareLoop()
        inbox.withLock { $0.runLoop = SharedRunLoop(RunLoop.current) }
        ready.signal()
        while !stopping {
            runOnce()
            turns.withLock { $0 += 1 }
        }
        exited.signal()
    }

    private func runJobs() {
        let jobs = inbox.withLock { inbox in
            defer { inbox.jobs.removeAll() }
            return inbox.jobs
        }
        for job in jobs { job() }
    }
}
