import Foundation
import WorkshopCore

/// One run of a check program's workload in a child process (exercises R1 and R3 run theirs
/// twice: plainly, and built with `-sanitize=thread`), and the last line it printed.
struct WorkloadRun {
    var outcome: Subprocess.Outcome?
    /// The last line that starts with the workload's prefix ("total=", "fetches ").
    var line: String?
    /// What to say when there is no such line.
    var problem: String

    /// Runs `binary` (at most 60 s), keeping ThreadSanitizer going after its first report so
    /// that the run still prints its line; `missing` names that line in the problem.
    static func run(
        _ binary: String, _ arguments: [String], memory: Subprocess.MemoryLimit, lineStarting prefix: String,
        missing: String
    ) -> WorkloadRun {
        var environment = ProcessInfo.processInfo.environment
        environment["TSAN_OPTIONS"] = "halt_on_error=0"
        guard
            let outcome = try? Subprocess.run(
                binary, arguments, environment: environment, timeout: 60, memoryLimit: memory)
        else {
            return WorkloadRun(outcome: nil, line: nil, problem: "could not start \(binary)")
        }
        let line = outcome.stdout.split(separator: "\n").last { $0.hasPrefix(prefix) }.map(String.init)
        let problem =
            outcome.signaled || outcome.timedOut
            ? "the workload crashed: \(outcome.describeEnd(timeout: 60))"
            : "no \(missing) printed (\(outcome.describeEnd(timeout: 60)))"
        return WorkloadRun(outcome: outcome, line: line, problem: problem)
    }
}
