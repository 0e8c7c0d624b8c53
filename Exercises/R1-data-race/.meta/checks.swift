import ExerciseChecks
import Foundation
import WorkshopCore

/// The checks of exercise R1 (Exercises/R1-data-race): a data race in a request counter.
///
/// A race is only certain to show under the thread sanitizer (TSan). The driver (see the
/// catalog) runs a workload: 8 tasks record requests in one counter while a ninth reads the
/// total. The runner builds it twice: once as the checks' program, which runs the workload
/// in a child process of its own (`--workload`: a crash in the counter is a failed check),
/// and once with `-sanitize=thread`, whose report on stderr is the third check.
public enum ExerciseR1Checks {
    /// What the driver does: `workers` tasks, each recording `requestsPerWorker` requests.
    public static let workers = 8
    public static let requestsPerWorker = 10
    public static let paths = ["/timeline", "/icon/a", "/icon/b", "/icon/c"]
    static var expectedLine: String {
        let perPath = workers * requestsPerWorker / paths.count
        return "total=\(workers * requestsPerWorker) " + paths.map { "\($0)=\(perPath)" }.joined(separator: " ")
    }

    // The checks, in the order they report: each declared once, in both languages.
    static let countsEvery = Check(
        "counts every request (plain run)", ja: "すべてのリクエストを数える（通常の実行）",
        wanted: expectedLine, ja: expectedLine, hint: 2)
    static let noRace = Check(
        "no data race under the thread sanitizer", ja: "スレッドサニタイザでデータ競合が出ない",
        wanted: String(format: "no ThreadSanitizer warning, and %@", expectedLine),
        ja: String(format: "ThreadSanitizer の警告がなく、%@", expectedLine), hint: 1)
    public static let all = [countsEvery, noRace]

    /// Runs the checks from the driver: its own workload plainly, then the sanitized build's.
    public static func run() -> [CheckResult] {
        run(plain: ExerciseDriver.executable, sanitized: ExerciseDriver.sanitizedBuild)
    }

    /// `plain`: a program that runs the workload when given `--workload`; `sanitized`: the
    /// thread-sanitized build of it (which runs the workload when started), or why there is none.
    public static func run(plain: String, sanitized: Result<String, ExerciseDriver.BuildFailure>) -> [CheckResult] {
        let (plainRun, sanitizedRun) = WorkloadRun.plainAndSanitized(
            plain: plain, sanitized: sanitized, lineStarting: "total=", missing: localized("count", ja: "集計の行"))
        var results = [countsEvery.result(plainRun.line == expectedLine, got: plainRun.line ?? plainRun.problem)]
        switch sanitized {
        case .failure(let failure):
            // No sanitized build: what it wants is the build, and hint 4 says how to get one.
            results.append(
                CheckResult(
                    name: noRace.name, ja: noRace.nameJapanese, passed: false,
                    expected: localized("a build with -sanitize=thread", ja: "-sanitize=thread 付きのビルド"),
                    got: failure.description, hint: 4))
        case .success:
            let sanitizedRun =
                sanitizedRun
                ?? WorkloadRun(
                    outcome: nil, line: nil, problem: localized("no sanitized run", ja: "サニタイザ付きの実行がありません"))
            let report = TSanReport(sanitizedRun.outcome?.stderr ?? "")
            results.append(
                noRace.result(
                    report.races == 0 && sanitizedRun.line == expectedLine,
                    got: report.races > 0 ? quoted(report.summary) : (sanitizedRun.line ?? sanitizedRun.problem)))
        }
        return results
    }
}
