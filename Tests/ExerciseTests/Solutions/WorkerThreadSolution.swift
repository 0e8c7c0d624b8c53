import Foundation
import WorkshopCore

// Reference solution of exercise 02. Kept under Tests/ so a learner does not stumble on it.

/// A worker thread with its own run loop: jobs posted from any thread run here, one at a
/// time, in the order they were posted (a log writer, a thumbnailer, a network thread...).
///
/// It works. It also burns a whole CPU core while it has nothing to do, which on a phone is
/// a hot battery, and on a shared server a neighbour's slow build. Your job is the three
/// methods under "Your part": make the loop sleep between jobs, and still stop when asked.
/// Everything above them is given and correct.
final class WorkerThreadSolution: @unchecked Sendable {  // @unchecked: `inbox` is a Locked; `stopping` and your own state are touched only on this thread; `thread` only by the owner
    private struct Inbox {
        var jobs: [@Sendable () -> Void] = []
        var runLoop: RunLoop?
        var open = true
    }
    /// Guards what other threads touch: the queued jobs and this thread's run loop.
    private let inbox = Locked(Inbox())
    private let ready = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    /// Set by `stop()`'s job, read by the loop: both on this thread.
    private var stopping = false

    private var thread: Thread?

    init() {}

    /// Starts the thread and returns once it can take jobs.
    func start(name: String = "worker") {
        let thread = Thread { [self] in main() }
        thread.name = name
        self.thread = thread
        thread.start()
        // A new thread is running within microseconds; 10 s means something is badly wrong.
        let began = ready.wait(timeout: .now() + 10)
        precondition(began == .success, "the worker thread did not start within 10 s")
    }

    /// Queues `job` to run on this thread. Returns false if the thread is stopping.
    @discardableResult
    func post(_ job: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard inbox.open, let runLoop = inbox.runLoop else { return false }
            inbox.jobs.append(job)
            // Wake the loop: a timer added to *this thread's* run loop (see linux-facts.md).
            runLoop.add(Timer(timeInterval: 0, repeats: false) { [weak self] _ in self?.runJobs() }, forMode: .default)
            return true
        }
    }

    /// Lets the jobs already posted run, then ends the thread. Returns true once the thread
    /// has left its loop, false if it has not within `timeout` seconds.
    @discardableResult
    func stop(timeout: Double = 2) -> Bool {
        post { [self] in
            stopping = true
            loopWillEnd()
        }
        inbox.withLock { $0.open = false }
        if exited.wait(timeout: .now() + timeout) == .timedOut { return false }
        exited.signal()  // a second stop() returns at once
        return true
    }

    /// The thread's body.
    private func main() {
        prepareLoop()
        inbox.withLock { $0.runLoop = RunLoop.current }
        ready.signal()
        while !stopping {
            runOnce()
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

    // MARK: - Your part (all three run on this thread)

    /// The source that keeps the run loop alive; never fires. Touched only on this thread.
    private var keepAlive: Timer?

    /// Called once, before the loop starts.
    func prepareLoop() {
        // A run loop with no source returns from run(mode:before:) at once. A timer in the
        // far future is a source that costs nothing: the loop sleeps in the kernel.
        let timer = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        RunLoop.current.add(timer, forMode: .default)
        keepAlive = timer
    }

    /// One trip around the loop: sleeps until something is due; returns when the mode is empty.
    func runOnce() {
        _ = RunLoop.current.run(mode: .default, before: .distantFuture)
    }

    /// Called by `stop()`'s job, just before the loop should end.
    func loopWillEnd() {
        // With no source left, run(mode:before:) returns and `while !stopping` ends.
        keepAlive?.invalidate()
        keepAlive = nil
    }
}
