import Foundation
import WorkshopCore
import WorkshopServer

/// Two promises every network lesson makes, checked on the built binary: a server that never
/// answers ends the run in bounded time, and every fault the fixture server knows ends it with
/// exit status 1 and a one-line cause. Each check returns what went wrong, in words; a test
/// asserts that the list is empty.
extension LessonBinary {
    /// What `--fault` takes besides an HTTP status.
    public static let faultKinds = Fault.kindNames

    /// What a lesson's failure says for a fault, unless the lesson's `causes` say otherwise.
    public static let commonCauses = [
        "500": "HTTP 500", "drop": "reset", "stall": "timed out after 1 s",
        "redirect-loop": "too many redirects from http://",
    ]

    /// Runs every variant with `--json --fault stall --timeout T` and `arguments`. Wanted: exit
    /// status 1, "timed out after T s waiting for http://", each variant over within about 2 x T
    /// (plus `slack` seconds for starting the program and the lesson's own work), and, while
    /// failing, the variants off the main thread keep it free: their worst freeze is under half
    /// of the no-thread variant's, which sat out the whole timeout on the main thread.
    /// With `oneCause`, stderr says that one cause once, for every variant; with `path`, it
    /// names the request the variants waited for. Up to three runs, until one has no problem:
    /// another program holding main's core for a moment lengthens a freeze, and a variant that
    /// really waits on main freezes in every run.
    public func silentServerProblems(
        _ arguments: [String] = [], timeout: Double = 1, slack: Double = 5, oneCause: Bool = false, path: String? = nil
    ) throws -> [String] {
        try firstPassing(passes: \.isEmpty) {
            try silentServerRunProblems(arguments, timeout: timeout, slack: slack, oneCause: oneCause, path: path)
        }
    }

    func silentServerRunProblems(
        _ arguments: [String], timeout: Double, slack: Double, oneCause: Bool, path: String?
    ) throws -> [String] {
        let seconds = timeout.formattedSeconds
        let outcome = try run(["--json", "--fault", "stall", "--timeout", seconds] + arguments, timeout: 90)
        var problems: [String] = []
        let variants = max(1, outcome.document?.variantNames.count ?? 1)
        if outcome.status != 1 { problems.append("exit status \(outcome.status), not 1") }
        if !outcome.stderr.contains("timed out after \(seconds) s waiting for http://") {
            problems.append("stderr does not say it timed out after \(seconds) s: \(outcome.stderr)")
        }
        if oneCause, outcome.stderr.split(separator: "\n").count != 1 {
            problems.append("not one line, one cause:\n\(outcome.stderr)")
        }
        if let path, !outcome.stderr.contains(path) {
            problems.append("stderr does not name \(path): \(outcome.stderr)")
        }
        if outcome.seconds >= Double(variants) * (2 * timeout) + slack {
            problems.append("took \(outcome.seconds) s for \(variants) variants with a \(seconds) s timeout")
        }
        if let document = outcome.document,
            let frozen = document.metrics("no-thread")[.mainThreadMaxStallSeconds] as? Double
        {
            for name in document.variantNames where name != "no-thread" && !name.hasPrefix("spin") {
                guard let stall = document.metrics(name)[.mainThreadMaxStallSeconds] as? Double else { continue }
                if stall >= 0.5 * frozen {
                    problems.append("\(name) froze the main thread \(stall) s while failing (no-thread: \(frozen) s)")
                }
            }
        }
        return problems
    }

    /// Runs every variant once per fault kind with `--json --fault KIND --timeout 1` and
    /// `arguments`. Wanted for each: exit status 1, every variant's failure one line that
    /// contains `causes[KIND]` (else the common cause), and the run over in bounded time; with
    /// `oneCause`, one cause said once on stderr; with `path`, stderr names that request.
    public func faultProblems(
        causes: [String: String], _ arguments: [String] = [], oneCause: Bool = false, path: String? = nil
    ) throws -> [String] {
        var problems: [String] = []
        for fault in Self.faultKinds {
            let outcome = try run(["--json", "--fault", fault, "--timeout", "1"] + arguments, timeout: 60)
            guard outcome.status == 1, let document = outcome.document else {
                problems.append("\(fault): exit status \(outcome.status) and no JSON document: \(outcome.stderr)")
                continue
            }
            if document.variantNames.isEmpty { problems.append("\(fault): no variant in the report") }
            if oneCause, outcome.stderr.split(separator: "\n").count != 1 {
                problems.append("\(fault): not one line, one cause:\n\(outcome.stderr)")
            }
            if let path, !outcome.stderr.contains(path) {
                problems.append("\(fault): stderr does not name \(path): \(outcome.stderr)")
            }
            for name in document.variantNames {
                let failure = document.failure(name) ?? "no failure"
                let cause = causes[fault] ?? Self.commonCauses[fault] ?? "?"
                if !failure.contains(cause) || failure.contains("\n") {
                    problems.append("\(fault), \(name): not one line saying '\(cause)': \(failure)")
                }
            }
            let variants = Double(max(1, document.variantNames.count))
            if outcome.seconds >= variants * (2 * 1) + 5 { problems.append("\(fault): took \(outcome.seconds) s") }
        }
        return problems
    }
}
