import Foundation  // and with it the C library: pthreads, clock_gettime
import WorkshopCore

/// A thread that owns a run loop and runs the blocks handed to it, one at a time, in order:
/// the "network thread" of the article, rebuilt for Linux.
///
/// How a block gets onto the thread (measured on Linux; Lessons/linux-notes.md has more):
/// `post` appends it to a locked inbox and adds a zero-second `Timer` to **this thread's**
/// `RunLoop` object. Adding a timer re-arms the loop's timerfd, which wakes the loop from its
/// sleep; the timer's block drains the inbox on the thread. (`RunLoop.perform` alone would
/// never wake it; `Timer.scheduledTimer` called elsewhere would go to the *caller's* loop.)
/// The inbox, not the timers, decides the order: blocks run first in, first out.
///
/// `stop()` closes the inbox (later posts are dropped and reported), lets the loop end, and
/// waits until the thread has really exited.
// @unchecked: what other threads touch is in `inbox` (a Locked); `keepAlive`, `stopping` and `exitBlocks` are touched only on the thread itself; `thread` only by the owner that calls start() and stop()
public final class RunLoopThread: @unchecked Sendable {
    /// What the loop cost, read after the thread has finished.
    public struct Stats: Sendable {
        /// CPU time the thread used (CLOCK_THREAD_CPUTIME_ID, read on the thread).
        public var cpuSeconds = 0.0
        /// Trips around the `while` loop, i.e. calls of `run(mode:before:)`.
        public var loopIterations = 0
        /// Times the inbox was drained (each one is the loop waking for work).
        public var wakeUps = 0
        public var blocksRun = 0
        /// Seconds from `post` to the block starting on the thread, for each block run.
        public var delays: [Double] = []
        public var maxDelaySeconds: Double { delays.max() ?? 0 }
        public var meanDelaySeconds: Double { delays.isEmpty ? 0 : delays.reduce(0, +) / Double(delays.count) }
        /// The typical delay; unlike the mean, one late wake-up on a busy machine does not move it.
        public var medianDelaySeconds: Double { delays.isEmpty ? 0 : delays.sorted()[delays.count / 2] }
    }

    private struct Inbox {
        var blocks: [(posted: Double, block: @Sendable () -> Void)] = []
        var runLoop: SharedRunLoop?
        var open = false
        var finished = false
        var dropped = 0
        var stats = Stats()
    }

    public let name: String
    public let style: LoopStyle
    /// Guards everything other threads may touch: the queue of blocks, the run loop handle, the stats.
    private let inbox = Locked(Inbox())
    private let started = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var threadID: pthread_t?

    // Touched only on the thread itself:
    private var keepAlive: Timer?
    private var stopping = false
    private var exitBlocks: [() -> Void] = []

    public init(name: String = "network-thread", style: LoopStyle = .keepAlive) {
        self.name = name
        self.style = style
    }

    /// Starts the thread and returns once its run loop is ready to take blocks.
    public func start() {
        let thread = Thread { [self] in main() }
        thread.name = name
        self.thread = thread
        thread.start()
        // A new thread is running within microseconds; 10 s means something is badly wrong.
        let began = started.wait(timeout: .now() + 10)
        precondition(began == .success, "the network thread did not start within 10 s")
    }

    /// True when called on this thread (callbacks use it to prove where they run).
    public var isCurrent: Bool {
        guard let id = inbox.withLock({ _ in threadID }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Hands `block` to the thread. Returns false (and drops the block) once the thread is stopping.
    @discardableResult
    public func post(_ block: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { state in
            guard state.open, let runLoop = state.runLoop else {
                state.dropped += 1
                return false
            }
            state.blocks.append((monotonicSeconds(), block))
            // The wake-up: a timer added to *that* thread's run loop. Added under the lock, so it
            // cannot race with the thread closing the inbox on its way out.
            runLoop.add(
                Timer(timeInterval: 0, repeats: false) { [weak self] _ in self?.drainInbox() }, forMode: .default)
            return true
        }
    }

    /// Stops the thread: blocks already posted still run, later ones are dropped.
    /// Returns true when the thread has exited within `timeout` seconds. Call it from another
    /// thread: the thread cannot wait for itself to exit.
    @discardableResult
    public func stop(timeout: Double = 5) -> Bool {
        precondition(!isCurrent, "stop() waits for \(name) to exit; call it from another thread")
        let accepted = post { [self] in
            stopping = true
            // With `.distantFuture`, `run(mode:before:)` returns only once the mode has no
            // source left: removing the keep-alive timer is what lets the loop end.
            keepAlive?.invalidate()
        }
        inbox.withLock { $0.open = false }
        guard accepted || thread != nil else { return true }
        if exited.wait(timeout: .now() + timeout) == .timedOut { return false }
        exited.signal()  // let a second stop() return at once
        return true
    }

    /// Registers cleanup to run on the thread when its loop ends (call on the thread).
    public func atExit(_ block: @escaping () -> Void) {
        precondition(isCurrent, "atExit is for code running on \(name)")
        exitBlocks.append(block)
    }

    public var isFinished: Bool { inbox.withLock { $0.finished } }
    public var stats: Stats { inbox.withLock { $0.stats } }

    // MARK: On the thread

    private func main() {
        let cpuAtStart = threadCPUSeconds()
        let runLoop = RunLoop.current
        if style != .noSource {
            // A timer that never fires: its only job is to be a source, so the loop has
            // something to wait for and sleeps instead of returning.
            let timer = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(timer, forMode: .default)
            keepAlive = timer
        }
        inbox.withLock { state in
            state.runLoop = SharedRunLoop(runLoop)
            state.open = true
            threadID = pthread_self()
        }
        started.signal()

        var iterations = 0
        while !stopping {
            iterations += 1
            switch style {
            case .noSource, .keepAlive:
                // The article's call. With a source attached this sleeps; without one it returns at once.
                _ = runLoop.run(mode: .default, before: .distantFuture)
            case .pastDeadline:
                _ = runLoop.run(mode: .default, before: Date())
            }
        }

        // Close the inbox first, so that nothing the cleanup triggers can still be posted.
        inbox.withLock { $0.open = false }
        for block in exitBlocks { block() }
        exitBlocks.removeAll()
        let cpu = threadCPUSeconds() - cpuAtStart
        inbox.withLock { state in
            state.open = false
            state.runLoop = nil
            state.finished = true
            state.dropped += state.blocks.count
            state.blocks.removeAll()
            state.stats.cpuSeconds = cpu
            state.stats.loopIterations = iterations
        }
        exited.signal()
    }

    /// Runs every block waiting in the inbox, in the order they were posted.
    private func drainInbox() {
        let now = monotonicSeconds()
        let batch = inbox.withLock { state in
            defer { state.blocks.removeAll() }
            state.stats.wakeUps += state.blocks.isEmpty ? 0 : 1
            for (posted, _) in state.blocks {
                state.stats.blocksRun += 1
                state.stats.delays.append(now - posted)
            }
            return state.blocks
        }
        for (_, block) in batch { block() }
    }
}

/// CPU seconds the calling thread has used so far.
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
