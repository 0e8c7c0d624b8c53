// Exercise 02: make a spinning run-loop thread sleep between jobs, and still stop.
// Check it: swift run workshop check 02
import ExerciseChecks  // RunLoopWorker: the given half of the thread
import Foundation

/// A worker thread with its own run loop, the shape of lesson 02's network thread.
/// `RunLoopWorker` (given) starts the thread, queues the jobs posted from any thread, and
/// wakes the loop for each by adding a `Timer` that fires at once to this thread's run loop.
/// It calls `prepareLoop()` once, then `runOnce()` again and again until `stop()`, whose
/// job calls `loopWillEnd()` and ends that loop.
///
/// As shipped it works, and between jobs it burns a whole core asking its run loop "anything
/// yet?". Your part is the three methods below; all three run on the worker thread.
// @unchecked: whatever state you add here is touched only on the worker thread.
final class WorkerThread: RunLoopWorker, @unchecked Sendable {
    /// The source that keeps the run loop alive; it never fires. Touched only on the worker thread.
    private var keepAlive: Timer?

    /// Called once, before the loop starts.
    override func prepareLoop() {
        // A run loop with no source returns from run(mode:before:) at once. A timer in the
        // far future is a source that costs nothing: the loop sleeps in the kernel.
        let timer = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        RunLoop.current.add(timer, forMode: .default)
        keepAlive = timer
    }

    /// One call into the loop, for the thread's whole life: it sleeps in the kernel and runs each
    /// job's wake-up timer as it fires.
    override func runOnce() {
        // A timer that fires does not end this call: it returns when the mode has no source or
        // timer left (or at the date, never here), that is once `loopWillEnd()` drops the keep-alive.
        _ = RunLoop.current.run(mode: .default, before: .distantFuture)
    }

    /// Called by `stop()`'s job, just before the loop should end.
    override func loopWillEnd() {
        // With no source left, run(mode:before:) returns and the loop ends.
        keepAlive?.invalidate()
        keepAlive = nil
    }
}
