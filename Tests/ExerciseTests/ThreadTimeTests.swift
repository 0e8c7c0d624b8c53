import ExerciseChecks
import Foundation
import Testing
import WorkshopCore

/// `ThreadTime`, what exercise 02's "the idle thread sleeps" decides on: the time a thread wanted
/// a core (on one, or waiting for one). A spinning thread wants one all the time, so the figure
/// is its whole spin even when other work leaves it little CPU; a sleeping thread wants none.
@Suite("ThreadTime: the time a thread wanted a core")
struct ThreadTimeTests {
    /// `body` run on a thread of its own: the ThreadTime it took, and how many times the thread
    /// was put on a core meanwhile (`/proc/thread-self/schedstat`'s third figure; nil elsewhere),
    /// both read on that thread.
    static func measured(_ body: @escaping @Sendable () -> Void) throws -> (ThreadTime, switchIns: Int?) {
        let result = Locked<(ThreadTime, Int?)?>(nil)  // Locked: written on the thread, read here
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let (before, switchedBefore) = (ThreadTime.now(), switchIns())
            body()
            let (after, switchedAfter) = (ThreadTime.now(), switchIns())
            result.withLock { $0 = (after - before, switchedAfter.flatMap { a in switchedBefore.map { a - $0 } }) }
            done.signal()
        }
        thread.start()
        try #require(done.wait(timeout: .now() + 30) == .success, "the measured thread did not end in 30 s")
        return try #require(result.current)
    }

    /// How many times the calling thread has been put on a core.
    static func switchIns() -> Int? {
        let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8)
        return text?.split(separator: " ").dropFirst(2).first.flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test("a thread that spins for 0.2 s wanted a core for about all of it: load moves it to waiting, not away")
    func aSpinningThreadIsRunnableAllTheTime() throws {
        let (time, _) = try Self.measured {
            let end = monotonicSeconds() + 0.2
            while monotonicSeconds() < end {}
        }
        #if os(Linux)
            #expect(time.waiting != nil, "Linux reports the time waiting for a core")
            // At least 75%: the kernel brings the running thread's figure up to date at a tick.
            #expect(time.runnable >= 0.15, "runnable \(time.runnable) s: \(time)")
        #endif
        print(String(format: "spinning 0.2 s: runnable %.3f s, on a core %.3f s", time.runnable, time.running))
    }

    /// A sleeping thread wants a core only to take its wake-up: it is on one for almost none of
    /// the sleep, and is put on one once. Its waiting is not a figure to bound: it is the wait
    /// for a core after the wake-up, which load stretches as it likes (0.227 s for this 0.2 s
    /// sleep, one switch-in, at a load of 13 on two cores), so `runnable` of a sleeping thread
    /// is small only on a machine with a core to spare.
    @Test("a thread that sleeps for 0.2 s is on a core for almost none of it, and woken once")
    func aSleepingThreadIsNotRunnable() throws {
        // Up to three tries, the first that shows at most two switch-ins kept: load only adds them
        // (a thread that loses its core while it reads the figures is put back on one), never takes
        // one away, so a sleep that polled would show many in every try. (Under the thread
        // sanitizer, with the slow tier's load, one try counted 8.)
        var (time, switchIns) = try Self.measured { Thread.sleep(forTimeInterval: 0.2) }
        for _ in 1..<3 where (switchIns ?? 0) > 2 {
            (time, switchIns) = try Self.measured { Thread.sleep(forTimeInterval: 0.2) }
        }
        #expect(time.running < 0.05, "on a core \(time.running) s: \(time)")
        #if os(Linux)
            // The wake-up, and at most one more (the thread may lose its core while it reads the figures).
            let woken = try #require(switchIns, "Linux reports how many times a thread was put on a core")
            #expect(woken <= 2, "put on a core \(woken) times: \(time)")
        #endif
        print(
            String(
                format: "sleeping 0.2 s: runnable %.3f s, on a core %.3f s, put on one %d times", time.runnable,
                time.running, switchIns ?? -1))
    }
}
