import Dispatch
import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What the checks decide on. A busy machine (a video call, a browser, another build: two cores
// of other load) makes everything slower, so no check decides "off the main thread?" or "in
// parallel?" from a stopwatch. They record what happened instead: where a call ran, what was
// in flight together, whether the main thread could still run. Where a time is still shown,
// it is measured against the same run's control (the same machine, a moment before, with no
// work) and Apple's vocabulary: a hang is a main thread that does not answer for 250 ms or more.

/// Apple's words for a main thread that does not answer: a hang is 250 ms or more.
public enum Hang {
    public static let seconds = 0.25
}

/// A gate that tasks wait at until it opens. A wait ends when the gate opens, when its own
/// timeout passes (so a check never waits forever on code that never opens it), or when the
/// waiting task is cancelled (a cancelled wait throws `CancellationError`).
///
/// The checks' fake networks use it to hold an answer until the evidence they look for has
/// happened ("both requests started", "all callers arrived"): then a correct program shows it
/// however slow the machine is, and a wrong one only costs the timeout, once.
public final class AsyncGate: Sendable {
    private struct State {
        var open = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits that ended (timed out or cancelled) before their continuation was stored.
        var ended: Set<Int> = []
        var nextID = 0
    }
    private let state = Locked(State())

    public init() {}

    public var isOpen: Bool { state.withLock { $0.open } }

    /// Opens the gate: every wait, now and later, ends at once.
    public func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until the gate opens (true) or `timeout` seconds pass (false). Throws
    /// `CancellationError` when the waiting task is cancelled.
    @discardableResult
    public func wait(timeout: Double) async throws -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.open || state.ended.contains(id) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now {
                    continuation.resume()
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in end(id) }
            }
        } onCancel: {
            end(id)
        }
        try Task.checkCancellation()
        return isOpen
    }

    /// Ends one wait (its timeout passed, or its task was cancelled).
    private func end(_ id: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.waiters.removeValue(forKey: id) else {
                state.ended.insert(id)
                return nil
            }
            return continuation
        }
        continuation?.resume()
    }
}

/// Whether the main thread could run while something happened on another thread: a block is
/// put on the main queue, and the caller waits (at most `timeout` seconds) for it to run.
/// Called from a fixture server's thread while it answers a request, it tells whether the
/// thread that asked is the main thread waiting for that answer: then the block cannot run
/// until the answer is sent. No stopwatch decides it: on a busy machine the block runs later,
/// but it runs; only a main thread that waits for the answer keeps it from running at all.
public final class MainQueueProbe: Sendable {
    public struct Verdict: Sendable, Equatable {
        public var path: String
        /// The main thread ran the block while the request waited for its answer.
        public var mainWasFree: Bool
    }

    private let seen = Locked<[Verdict]>([])
    /// How long a request waits for the main queue, at most.
    public let timeout: Double

    /// 1 s: Apple's "severe hang". A free main thread runs the block within milliseconds, and on
    /// a very busy machine within tens of them; only one that waits for the answer never does.
    public init(timeout: Double = 1) { self.timeout = timeout }

    /// Holds the request for `path` until a block put on the main queue has run (or
    /// `timeout` passes), and records which. Once the main thread has been found waiting,
    /// later requests are no longer held: the evidence is in, and a waiting main thread would
    /// cost the timeout on every request.
    /// Returns whether the main thread was free.
    @discardableResult
    public func hold(path: String) -> Bool {
        if seen.current.contains(where: { !$0.mainWasFree }) {
            seen.withLock { $0.append(Verdict(path: path, mainWasFree: false)) }
            return false
        }
        let ran = DispatchSemaphore(value: 0)
        DispatchQueue.main.async { ran.signal() }
        let free = ran.wait(timeout: .now() + timeout) == .success
        seen.withLock { $0.append(Verdict(path: path, mainWasFree: free)) }
        return free
    }

    public var verdicts: [Verdict] { seen.current }
}

/// The main loop's own lateness on this machine now: a 16 ms frame timer on the main queue,
/// run for `seconds` with no work, and its worst gap beyond one frame. On a quiet machine a
/// few ms; with two busy cores it can be tens of ms. Call on the main thread.
public func mainLoopControlLateness(seconds: Double = 0.3) -> Double {
    requireMainQueue()
    let meter = StallMeter()
    meter.start()
    MainLoop.run(timeout: seconds) { false }  // the quiet period being measured
    meter.stop()
    return max(0, meter.maxStallSeconds - meter.frameSeconds)
}

/// The CPU seconds the calling thread has used so far: time on a core, which a busy machine
/// does not add to (a thread waiting for a core uses none).
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}

/// The calling thread's time so far: on a core, and ready to run but waiting for one.
///
/// Their sum is the time the thread wanted a core, and a busy machine cannot fake it: load
/// moves a thread's time from running to waiting, not out of the sum. CPU time alone can be
/// faked that way. A run loop that spins past its deadline gives the core up at every turn, so
/// each turn waits behind every other runnable thread. Measured here: in 0.5 s, 0.282 s on a
/// core and 0.002 s waiting on a quiet machine; with eight `yes` running, 0.003 s on a core and
/// 0.320 s waiting. A sleeping thread is in neither.
public struct ThreadTime: Sendable, Equatable {
    /// Seconds on a core (the thread's CPU clock).
    public var running: Double
    /// Seconds ready to run and waiting for a core; nil where the system does not say.
    public var waiting: Double?

    /// Running and waiting: the time the thread wanted a core (running alone without `waiting`).
    public var runnable: Double { running + (waiting ?? 0) }

    public static func - (later: ThreadTime, earlier: ThreadTime) -> ThreadTime {
        ThreadTime(
            running: later.running - earlier.running,
            waiting: later.waiting.flatMap { l in earlier.waiting.map { l - $0 } })
    }

    /// The calling thread's, now. Linux reports both figures in `/proc/thread-self/schedstat`
    /// (nanoseconds on a core, nanoseconds waiting, time slices). macOS has no such file, so
    /// there `waiting` is nil and only the CPU clock is read.
    public static func now() -> ThreadTime {
        #if os(Linux)
            if let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8) {
                let fields = text.split(separator: " ").compactMap { Double($0) }
                if fields.count >= 2 {
                    return ThreadTime(running: fields[0] / 1_000_000_000, waiting: fields[1] / 1_000_000_000)
                }
            }
        #endif
        return ThreadTime(running: threadCPUSeconds(), waiting: nil)
    }

    public init(running: Double, waiting: Double?) {
        self.running = running
        self.waiting = waiting
    }
}

/// A flag that main-actor tasks set and the main loop reads (both on the main actor, so no lock).
@MainActor
public final class MainActorFlag {
    public var isSet = false
    public init() {}
}
