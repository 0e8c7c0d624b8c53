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
    /// Called once, before the loop starts.
    override func prepareLoop() {
        // TODO(1): nothing is attached to this run loop yet. What does a loop with no source do?
    }

    /// One trip around the loop: runs whatever is due (the jobs' wake-up timers), then returns.
    override func runOnce() {
        // TODO(2): old sample code did this. How long does this call wait?
        _ = RunLoop.current.run(mode: .default, before: Date())
    }

    /// Called by `stop()`'s job, just before the loop should end.
    override func loopWillEnd() {
        // TODO(3): the loop ends only once `runOnce()` returns. Will it?
    }
}
