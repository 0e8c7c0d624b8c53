import Dispatch
import Foundation
import Testing
import WorkshopCore

/// An actor behind a `QueueExecutor` runs its jobs on its own queue, so blocking work in it
/// (synchronous SQLite, a sleep) leaves Swift's shared pool free for everyone else.
@Suite struct QueueExecutorTests {
    actor Blocker {
        let executor = QueueExecutor(label: "blocker")
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Blocks its thread until `release` is signalled (or 60 s, a failing test's end): what a
        /// long SQLite call does.
        func block(until release: DispatchSemaphore, ended: Locked<Int>) -> Bool {
            dispatchPrecondition(condition: .onQueue(executor.queue))
            defer { ended.withLock { $0 += 1 } }
            return release.wait(timeout: .now() + 60) == .success
        }
    }

    /// Twice as many blocked actors as the pool has threads (cores), and still a plain task on
    /// the pool runs to its end while they block: they hold threads of their own. (On the
    /// default executor, the same actors would hold every pool thread and the task would wait
    /// for their 60 s to run out. The blockers are released only after the task has run, so
    /// other tests holding pool threads for a while only delay it: no clock decides.)
    @Test func blockedActorsLeaveThePoolFree() async {
        let release = DispatchSemaphore(value: 0)
        let ended = Locked(0)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let blocked = (0..<2 * cores).map { _ in
            Task { await Blocker().block(until: release, ended: ended) }
        }
        let poolTask = Task.detached { () -> Bool in
            // Runs when a pool thread is free: true if no blocker had ended yet. On the default
            // executor the blockers would hold the pool until their 60 s ran out: false.
            ended.current == 0
        }
        let ranWhileBlocked = await poolTask.value
        for _ in blocked { release.signal() }
        for task in blocked {
            let released = await task.value
            #expect(released, "a blocker was not released")
        }
        #expect(ranWhileBlocked, "the pool task had to wait for the blocked actors")
    }
}
