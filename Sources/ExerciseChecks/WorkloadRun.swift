import Foundation
import WorkshopCore

/// One run of a check program's workload in a child process (exercises R1 and R3 run theirs
/// twice: plainly, and built with `-sanitize=thread`), and the last line it printed.
public struct WorkloadRun: Sendable {
    public var outcome: Subprocess.Outcome?
    /// The last line that starts with the workload's prefix ("total=", "fetches ").
    public var line: String?
    /// What to say when there is no such line.
    public var problem: String

    public init(outcome: Subprocess.Outcome?, line: String?, problem: String) {
        self.outcome = outcome
        self.line = line
        self.problem = problem
    }

    /// How long a workload may run: 60 s, or half the time the check program has left when the
    /// runner gave it a deadline (20 s by default). A workload that hangs (the shipped R3's racy
    /// dictionaries can) then ends as a failed check with time to spare, instead of taking the
    /// whole program past its limit, where every check would read "not run".
    public static var timeLimit: Double {
        guard let text = ProcessInfo.processInfo.environment[Subprocess.deadlineVariable], let deadline = Double(text)
        else { return 60 }
        return min(60, max(1, (deadline - Date().timeIntervalSince1970) / 2))
    }

    /// Runs `binary` (at most `timeLimit`), keeping ThreadSanitizer going after its first report
    /// so that the run still prints its line; `missing` names that line in the problem.
    public static func run(
        _ binary: String, _ arguments: [String], memory: Subprocess.MemoryLimit, lineStarting prefix: String,
        missing: String
    ) -> WorkloadRun {
        var environment = ProcessInfo.processInfo.environment
        environment["TSAN_OPTIONS"] = "halt_on_error=0"
        // The driver's own workload: its backtrace says nothing to the learner, and taking one
        // from a stopped, hung run can outlast the check program's limit.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let limit = timeLimit
        guard
            let outcome = try? Subprocess.run(
                binary, arguments, environment: environment, timeout: limit, memoryLimit: memory, killGrace: 1)
        else {
            return WorkloadRun(
                outcome: nil, line: nil, problem: localized(format: "could not start %@", ja: "%@ を起動できませんでした", binary))
        }
        let line = outcome.stdout.split(separator: "\n").last { $0.hasPrefix(prefix) }.map(String.init)
        let problem =
            outcome.signaled || outcome.timedOut
            ? localized(
                format: "the workload crashed: %@", ja: "ワークロードがクラッシュしました:「%@」", outcome.describeEnd(timeout: limit))
            : localized(
                format: "no %1$@ printed (%2$@)", ja: "%1$@が出力されませんでした（「%2$@」）", missing,
                outcome.describeEnd(timeout: limit))
        return WorkloadRun(outcome: outcome, line: line, problem: problem)
    }

    /// The workload twice at once, each in a child of its own (together they take half the
    /// time): `plain` given `--workload`, and the thread-sanitized build, when there is one
    /// (nil when it did not build), with no memory limit (the sanitizer maps terabytes of
    /// shadow memory). Each child has its own time limit; the wait for the second has one more.
    public static func plainAndSanitized(
        plain: String, sanitized: Result<String, ExerciseDriver.BuildFailure>, lineStarting prefix: String,
        missing: String
    ) -> (plain: WorkloadRun, sanitized: WorkloadRun?) {
        guard case .success(let sanitizedBinary) = sanitized else {
            return (run(plain, ["--workload"], memory: .inherit, lineStarting: prefix, missing: missing), nil)
        }
        let sanitizedRun = Locked<WorkloadRun?>(nil)
        let sanitizedDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let run = run(sanitizedBinary, [], memory: .unlimited, lineStarting: prefix, missing: missing)
            sanitizedRun.withLock { $0 = run }
            sanitizedDone.signal()
        }
        let plainRun = run(plain, ["--workload"], memory: .inherit, lineStarting: prefix, missing: missing)
        _ = sanitizedDone.wait(timeout: .now() + timeLimit + 5)
        let late = WorkloadRun(
            outcome: nil, line: nil,
            problem: localized(format: "%@ did not end in time", ja: "%@ が時間内に終わりませんでした", sanitizedBinary))
        return (plainRun, sanitizedRun.current ?? late)
    }
}
