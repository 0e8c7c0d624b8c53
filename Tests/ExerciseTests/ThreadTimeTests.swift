import ExerciseChecks
import Foundation
import Testing
import WorkshopCore

/// `ThreadTime`, what exercise 02's "the idle thread sleeps" decides on: the time a thread wanted
/// a core (on one, or waiting for one). A spinning thread wants one all the time, so the figure
/// is its whole spin even when other work leaves it little CPU; a sleeping thread wants none.
@Suite("ThreadTime: the time a thread wanted a core")
struct ThreadTimeTests {
    /// `body` run on a thread of its own, and the ThreadTime it took, read on that thread.
    static func measured(_ body: @escaping @Sendable () -> Void) throws -> ThreadTime {
        let result = Locked<ThreadTime?>(nil)  // Locked: written on the thread, read here
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let before = ThreadTime.now()
            body()
            result.withLock { $0 = ThreadTime.now() - before }
            done.signal()
        }
        thread.start()
        try #require(done.wait(timeout: .now() + 30) == .success, "the measured thread did not end in 30 s")
        return try #require(result.current)
    }

    @Test("a thread that spins for 0.2 s wanted a core for about all of it: load moves it to waiting, not away")
    func aSpinningThreadIsRunnableAllTheTime() throws {
        let time = try Self.measured {
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

    @Test("a thread that sleeps for 0.2 s wanted a core for almost none of it")
    func aSleepingThreadIsNotRunnable() throws {
        let time = try Self.measured { Thread.sleep(forTimeInterval: 0.2) }
        // What is left is taking the wake-up: under half the sleep, however busy the machine.
        #expect(time.runnable < 0.1, "runnable \(time.runnable) s: \(time)")
        print(String(format: "sleeping 0.2 s: runnable %.3f s, on a core %.3f s", time.runnable, time.running))
    }
}
