import Dispatch
import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks of exercise 02 (Exercises/02-sleeping-run-loop): a run-loop thread that
/// sleeps between jobs and still stops.
public enum Exercise02Checks {
    /// A started worker, seen through the two calls the checks use.
    public struct Worker {
        public var post: (@escaping @Sendable () -> Void) -> Bool
        public var stop: (_ timeout: Double) -> Bool
        public init(post: @escaping (@escaping @Sendable () -> Void) -> Bool, stop: @escaping (Double) -> Bool) {
            self.post = post
            self.stop = stop
        }
    }

    public static let idleSeconds = 0.5

    /// Runs every check against workers made by `makeWorker`. Call on the main thread.
    public static func run(makeWorker: () -> Worker) -> [CheckResult] {
        requireMainQueue()
        var results: [CheckResult] = []

        // 1. Jobs run on one thread (not this one), in order.
        let worker = makeWorker()
        let seen = Locked<[(index: Int, thread: pthread_t)]>([])
        let allRan = DispatchSemaphore(value: 0)
        for index in 0..<100 {
            _ = worker.post {
                let count = seen.withLock {
                    $0.append((index, pthread_self()))
                    return $0.count
                }
                if count == 100 { allRan.signal() }
            }
        }
        let ranInTime = allRan.wait(timeout: .now() + 5) == .success
        let runs = seen.current
        let oneOtherThread =
            runs.allSatisfy { pthread_equal($0.thread, runs[0].thread) != 0 }
            && runs.first.map { pthread_equal($0.thread, pthread_self()) == 0 } == true
        results.append(
            CheckResult(
                name: "jobs run on the worker thread, in order",
                passed: ranInTime && oneOtherThread && runs.map(\.index) == Array(0..<100),
                expected: "100 jobs, all on the worker thread, in the order posted",
                got: ranInTime
                    ? "\(counted(runs.count, "job")), \(oneOtherThread ? "one worker thread" : "on several threads"), "
                        + (runs.map(\.index) == Array(0..<100) ? "in order" : "out of order")
                    : "only \(runs.count) of 100 jobs ran within 5 s",
                hint: 2))

        // 2. While idle, it sleeps: its CPU clock barely moves.
        let before = cpuOfWorker(worker)
        MainLoop.run(timeout: idleSeconds) { false }  // the idle period being measured
        let after = cpuOfWorker(worker)
        let idleCPU = before.flatMap { b in after.map { $0 - b } }
        results.append(
            CheckResult(
                name: "the idle thread sleeps",
                passed: (idleCPU ?? .infinity) < 0.02 * idleSeconds,
                expected: String(
                    format: "under %.3f s of CPU in %.1f s of idling (2%% of a core)", 0.02 * idleSeconds, idleSeconds),
                got: idleCPU.map { String(format: "%.3f s of CPU (%.0f%% of a core)", $0, 100 * $0 / idleSeconds) }
                    ?? "the worker did not answer",
                hint: idleCPU == nil ? 3 : 1))

        // 3. A job posted to the idle thread starts quickly.
        var delays: [Double] = []
        for _ in 0..<20 {
            let started = Locked<Double?>(nil)
            let ran = DispatchSemaphore(value: 0)
            let postedAt = monotonicSeconds()
            guard
                worker.post({
                    started.withLock { $0 = monotonicSeconds() }
                    ran.signal()
                }),
                ran.wait(timeout: .now() + 2) == .success, let at = started.current
            else { break }
            delays.append(at - postedAt)
        }
        // The median: on a busy machine a few wake-ups wait for a free core, whatever the code.
        let medianDelay = delays.isEmpty ? Double.infinity : delays.sorted()[delays.count / 2]
        results.append(
            CheckResult(
                name: "a job posted to the idle thread starts at once",
                passed: delays.count == 20 && medianDelay < 0.020,
                expected: "20 jobs, the median one starting under 20 ms after post",
                got: delays.count == 20
                    ? String(format: "a median of %.1f ms", medianDelay * 1000) : "only \(delays.count) of 20 jobs ran",
                hint: 4))

        // 4. stop() ends the thread.
        let stopped = worker.stop(2)
        let refused = !worker.post({})
        results.append(
            CheckResult(
                name: "stop() ends the thread",
                passed: stopped && refused,
                expected: "stop() returns true within 2 s, and later posts are refused",
                got: stopped
                    ? (refused ? "stopped" : "stopped, but a later post was accepted")
                    : "the loop was still running after 2 s",
                hint: 3))
        return results
    }

    /// The worker thread's CPU seconds so far, read on the worker itself (nil if it does not answer).
    static func cpuOfWorker(_ worker: Worker) -> Double? {
        let reading = Locked<Double?>(nil)
        let answered = DispatchSemaphore(value: 0)
        guard
            worker.post({
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                reading.withLock { $0 = Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000 }
                answered.signal()
            })
        else { return nil }
        guard answered.wait(timeout: .now() + 2) == .success else { return nil }
        return reading.current
    }
}
