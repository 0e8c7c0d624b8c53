import Dispatch
import ExerciseChecks
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
        /// How many times the worker's loop has gone round so far.
        public var turns: () -> Int
        public init(
            post: @escaping (@escaping @Sendable () -> Void) -> Bool, stop: @escaping (Double) -> Bool,
            turns: @escaping () -> Int = { 0 }
        ) {
            self.post = post
            self.stop = stop
            self.turns = turns
        }
    }

    public static let idleSeconds = 0.5
    /// Turns of the loop allowed while idle. A loop that sleeps until there is work turns none
    /// (the jobs run inside the one `runOnce` that sleeps); one that polls every 50 ms turns 10
    /// times in 0.5 s, however busy the machine is.
    public static let idleTurns = 1
    /// The share of the idle time the worker may be runnable (on a core or waiting for one). A
    /// loop that sleeps is runnable only to take the one job that reads its clock; one that spins
    /// is runnable half the time or more on a quiet machine, and more on a busy one.
    public static let idleRunnableShare = 0.2

    // The checks, in the order they report: each declared once, in both languages.
    static let jobsInOrder = Check(
        "jobs run on the worker thread, in order", ja: "ジョブがワーカスレッドで、投げた順に動く",
        wanted: "100 jobs, all on the worker thread, in the order posted", ja: "100 個のジョブがすべてワーカスレッドで、投げた順に動く",
        hint: 2)
    static let idleSleeps = Check(
        "the idle thread sleeps", ja: "仕事のないスレッドは眠る",
        wanted: String(
            format: "under %.3f s runnable (on a core or waiting for one) in %.1f s of idling (%.0f%% of it)",
            idleRunnableShare * idleSeconds, idleSeconds, idleRunnableShare * 100),
        ja: String(
            format: "アイドル %2$.1f 秒の間に、実行可能だった時間（CPU で動いていた時間と CPU の空きを待っていた時間の合計）が %1$.3f 秒未満（%3$.0f%%）",
            idleRunnableShare * idleSeconds, idleSeconds, idleRunnableShare * 100), hint: 1)
    static let startsAtOnce = Check(
        "a job posted to the idle thread starts at once", ja: "眠っているスレッドに投げたジョブがすぐに始まる",
        wanted: String(
            format:
                "the loop sleeps until a job wakes it (at most %d turn of the loop in %.1f s of idling), and 20 jobs start, the median under %.0f ms later than this machine wakes a waiting thread",
            idleTurns, idleSeconds, noticeable * 1000),
        ja: String(
            format:
                "ループはジョブに起こされるまで眠り（%2$.1f 秒の待ちでループが回るのは %1$d 回まで）、20 個のジョブが、このマシンが待っているスレッドを起こす時間より %3$.0f ms 未満（中央値）の遅れで始まる",
            idleTurns, idleSeconds, noticeable * 1000), hint: 4)
    static let stopEnds = Check(
        "stop() ends the thread", ja: "stop() でスレッドが終わる",
        wanted: "stop() returns true within \(Int(stopSeconds)) s, and later posts are refused",
        ja: "stop() が \(Int(stopSeconds)) 秒以内に true を返し、そのあとの post は断られる", hint: 3)
    public static let all = [jobsInOrder, idleSleeps, startsAtOnce, stopEnds]

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
            jobsInOrder.result(
                ranInTime && oneOtherThread && runs.map(\.index) == Array(0..<100),
                got: ranInTime
                    ? localized(
                        format: "%1$@, %2$@, %3$@", ja: "%1$@、%2$@、%3$@",
                        localized(count: runs.count, "%d job", "%d jobs", ja: "ジョブ %d 個"),
                        oneOtherThread
                            ? localized("one worker thread", ja: "ワーカスレッドは 1 つ")
                            : localized("on several threads", ja: "複数のスレッドで実行"),
                        runs.map(\.index) == Array(0..<100)
                            ? localized("in order", ja: "順番どおり") : localized("out of order", ja: "順番が違います"))
                    : localized(
                        format: "only %d of 100 jobs ran within 5 s", ja: "5 秒以内に動いたジョブは 100 個中 %d 個だけでした", runs.count))
        )

        // 2. While idle, it sleeps: it does not want a core, and its loop does not turn.
        // (The time it was runnable, not its CPU time and not a stopwatch: on a busy machine a
        // spinning loop gets little CPU, but it waits for a core all the time; see `ThreadTime`.)
        let before = timeOfWorker(worker)
        let turnsBefore = worker.turns()
        MainLoop.run(timeout: idleSeconds) { false }  // the idle period being measured
        let turnsWhileIdle = worker.turns() - turnsBefore
        let after = timeOfWorker(worker)
        let idleTime = before.flatMap { b in after.map { $0 - b } }
        var idle = idleSleeps.result(
            (idleTime?.runnable ?? .infinity) < idleRunnableShare * idleSeconds,
            got: idleTime.map(describe) ?? localized("the worker did not answer", ja: "ワーカが応答しませんでした"))
        // A worker that did not answer is stuck in its run loop: hint 3 is about when the loop returns.
        if idleTime == nil { idle.hint = 3 }
        results.append(idle)

        // 3. A job posted to the idle thread starts at once: the thread slept until the post woke
        // it (its loop did not go round to look now and then), and its wake-up is as quick as
        // this machine wakes a thread that waits on a semaphore (the control, measured just before).
        let control = median(controlWakeDelays())
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
        let medianDelay = delays.count == 20 ? median(delays) : .infinity
        let slept = turnsWhileIdle <= idleTurns
        let quick = medianDelay < control + noticeable
        results.append(
            startsAtOnce.result(
                slept && quick,
                got: localized(
                    format: "%1$@ of the loop while idle; %2$@", ja: "待ちの間にループが %1$@回りました。%2$@",
                    localized(count: turnsWhileIdle, "%d turn", "%d turns", ja: "%d 回"),
                    delays.count == 20
                        ? localized(
                            format: "a median of %.1f ms (this machine: %.1f ms)",
                            ja: "中央値 %1$.1f ms（このマシン: %2$.1f ms）", medianDelay * 1000, control * 1000)
                        : localized(format: "only %d of 20 jobs ran", ja: "動いたジョブは 20 個中 %d 個だけでした", delays.count))))

        // 4. stop() ends the thread.
        let stopped = worker.stop(stopSeconds)
        let refused = !worker.post({})
        results.append(
            stopEnds.result(
                stopped && refused,
                got: stopped
                    ? (refused
                        ? localized("stopped", ja: "止まりました")
                        : localized("stopped, but a later post was accepted", ja: "止まりましたが、そのあとの post が受け付けられました"))
                    : localized(
                        format: "the loop was still running after %d s", ja: "%d 秒たってもループが動いていました", Int(stopSeconds))))
        return results
    }

    /// How long `stop` may take: a loop that ends does so in milliseconds; one that never
    /// returns from its run loop never does. (The waits of a worker that never runs a job add
    /// up to about 15 s, under the 20 s a check program may take: such a file gets its failed
    /// checks, not a time-out.)
    public static let stopSeconds = 3.0
    /// A delay a user notices (Apple: 100 ms), beyond the machine's own.
    public static let noticeable = 0.1

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .infinity : values.sorted()[values.count / 2]
    }

    /// The control: 20 wake-ups of a plain thread that waits on a semaphore, each measured from
    /// the signal to the moment the thread runs, the way the worker's jobs are measured.
    static func controlWakeDelays() -> [Double] {
        let signalled = Locked<Double?>(nil)
        let go = DispatchSemaphore(value: 0)
        let woke = DispatchSemaphore(value: 0)
        let delays = Locked<[Double]>([])
        let thread = Thread {
            for _ in 0..<20 {
                guard go.wait(timeout: .now() + 2) == .success else { break }
                let at = monotonicSeconds()
                if let sent = signalled.current { delays.withLock { $0.append(at - sent) } }
                woke.signal()
            }
        }
        thread.start()
        for _ in 0..<20 {
            signalled.withLock { $0 = monotonicSeconds() }
            go.signal()
            guard woke.wait(timeout: .now() + 2) == .success else { break }
        }
        return delays.current
    }

    /// What the worker did with its idle time, in the words of "the idle thread sleeps".
    static func describe(_ time: ThreadTime) -> String {
        let share = 100 * time.runnable / idleSeconds
        guard let waiting = time.waiting else {
            return localized(
                format: "%.3f s on a core (%.0f%% of the idling; this system does not report waiting for one)",
                ja: "CPU で動作 %1$.3f 秒（アイドル時間の %2$.0f%%。このシステムは CPU 待ちの時間を報告しません）", time.running,
                share)
        }
        return localized(
            format: "%.3f s runnable: %.3f s on a core, %.3f s waiting for one (%.0f%% of the idling)",
            ja: "実行可能 %1$.3f 秒（CPU で動作 %2$.3f 秒、CPU 待ち %3$.3f 秒。アイドル時間の %4$.0f%%）", time.runnable,
            time.running, waiting, share)
    }

    /// The worker thread's time so far, read on the worker itself (nil if it does not answer).
    static func timeOfWorker(_ worker: Worker) -> ThreadTime? {
        let reading = Locked<ThreadTime?>(nil)
        let answered = DispatchSemaphore(value: 0)
        guard
            worker.post({
                reading.withLock { $0 = ThreadTime.now() }
                answered.signal()
            })
        else { return nil }
        guard answered.wait(timeout: .now() + 2) == .success else { return nil }
        return reading.current
    }
}
