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
///
/// `Sendable` as the compiler checks it: what other threads touch is in `inbox`, a lock; what
/// only the thread touches is in `own`, a lock no other thread takes (so it never waits); and
/// the keep-alive timer, which is not `Sendable`, is in the thread's own `threadDictionary`,
/// which only code running on the thread reaches.
public final class RunLoopThread: Sendable {
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
        /// `start()` was called.
        var launched = false
        /// The thread's `threadID`, set on the thread once it runs.
        var threadID: UInt?
        var open = false
        var finished = false
        var dropped = 0
        var stats = Stats()
    }

    /// What only the thread itself touches.
    private struct Own {
        /// Set by `stop()`'s block: the `while` loop ends at its next turn.
        var stopping = false
        /// What `atExit` registered, run when the loop ends.
        var exitBlocks: [@Sendable () -> Void] = []
    }

    public let name: String
    public let style: LoopStyle
    /// Guards everything other threads may touch: the queue of blocks, the run loop handle, the stats.
    private let inbox = Locked(Inbox())
    private let own = Locked(Own())
    /// The keep-alive timer's key in the thread's `threadDictionary`.
    private static let keepAliveKey = "RunLoopThread.keepAlive"
    private let started = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    public init(name: String = "network-thread", style: LoopStyle = .keepAlive) {
        self.name = name
        self.style = style
    }

    /// Starts the thread and returns once its run loop is ready to take blocks.
    public func start() {
        let thread = Thread { [self] in main() }
        thread.name = name
        inbox.withLock { $0.launched = true }
        thread.start()
        // A new thread is running within microseconds; 10 s means something is badly wrong.
        let began = started.wait(timeout: .now() + 10)
        precondition(began == .success, "the network thread did not start within 10 s")
    }

    /// True when called on this thread (callbacks use it to prove where they run).
    public var isCurrent: Bool {
        guard let id = inbox.withLock({ $0.threadID }) else { return false }
        return id == Self.threadID
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
        let accepted = post { [own] in
            own.withLock { $0.stopping = true }
            // With `.distantFuture`, `run(mode:before:)` returns only once the mode has no
            // source left: removing the keep-alive timer is what lets the loop end.
            (Thread.current.threadDictionary[Self.keepAliveKey] as? Timer)?.invalidate()
        }
        let launched = inbox.withLock { state in
            state.open = false
            return state.launched
        }
        guard accepted || launched else { return true }
        if exited.wait(timeout: .now() + timeout) == .timedOut { return false }
        exited.signal()  // let a second stop() return at once
        return true
    }

    /// Registers cleanup to run on the thread when its loop ends (call on the thread).
    public func atExit(_ block: @escaping @Sendable () -> Void) {
        precondition(isCurrent, "atExit is for code running on \(name)")
        own.withLock { $0.exitBlocks.append(block) }
    }

    /// The calling thread's `pthread_self()` as a number, which may be kept under a lock: a
    /// `pthread_t` is a number on Linux and a pointer on Apple platforms (two are the same thread
    /// when they are equal, which is what `pthread_equal` compares in glibc).
    private static var threadID: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    public var isFinished: Bool { inbox.withLock { $0.finished } }
    public var stats: Stats { inbox.withLock { $0.stats } }

    /// Whether `stop()`'s block has run: the `while` loop's condition.
    private var stopping: Bool { own.withLock { $0.stopping } }

    // MARK: On the thread

    private func main() {
        let cpuAtStart = threadCPUSeconds()
        let runLoop = RunLoop.current
        if style != .noSource {
            // A timer that never fires: its only job is to be a source, so the loop has
            // something to wait for and sleeps instead of returning.
            let timer = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(timer, forMode: .default)
            Thread.current.threadDictionary[Self.keepAliveKey] = timer
        }
        inbox.withLock { state in
            state.runLoop = SharedRunLoop(runLoop)
            state.open = true
            state.threadID = Self.threadID
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
        let exitBlocks = own.withLock { own in
            defer { own.exitBlocks.removeAll() }
            return own.exitBlocks
        }
        for block in exitBlocks { block() }
        Thread.current.threadDictionary[Self.keepAliveKey] = nil
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
