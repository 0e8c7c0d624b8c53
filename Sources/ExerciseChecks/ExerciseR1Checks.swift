import Foundation
import WorkshopCore

/// The checks of exercise R1 (Exercises/R1-data-race): a data race in a request counter.
///
/// Unlike the other exercises, these checks never run the learner's code inside this
/// process. A race is only certain to show under the thread sanitizer (TSan), and a racy
/// class inside the test process would make every `swift test --sanitize=thread` run red. So
/// the checks compile the learner's file with a small driver (`driverSource`) twice, plainly
/// and with `-sanitize=thread`, and run each build in a child process. The package's own
/// tests stay green with and without `--sanitize=thread`, whatever the learner's file holds.
public enum ExerciseR1Checks: ExerciseCheckSuite, ChecksCompileTheFile {
    public static let id = "R1"
    public static let title = "a data race in a request counter"
    public static let directory = "Exercises/R1-data-race"
    public static let exerciseFile = "Exercises/R1-data-race/RequestCounter.swift"
    public static let shippedFingerprint = "4ecfc3a66203d44c"
    public static let referenceFile = "Tests/ExerciseTests/Solutions/RequestCounterSolution.swift"

    /// What the driver does: `workers` tasks, each recording `requestsPerWorker` requests.
    public static let workers = 8
    public static let requestsPerWorker = 10
    public static let paths = ["/timeline", "/icon/a", "/icon/b", "/icon/c"]
    static var expectedLine: String {
        let perPath = workers * requestsPerWorker / paths.count
        return "total=\(workers * requestsPerWorker) " + paths.map { "\($0)=\(perPath)" }.joined(separator: " ")
    }

    /// The main.swift compiled with the learner's file. `await` works for a class and an actor
    /// alike (for a class the compiler only warns, and those warnings are not the learner's).
    static let driverSource = """
        import Foundation

        // \(workers) "image queues" fetch \(requestsPerWorker) things each and record every request in one
        // counter, while the "Screen" reads the total now and then.
        func main() async {
            let counter = RequestCounter()
            let paths = [\(paths.map { "\"\($0)\"" }.joined(separator: ", "))]
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<\(workers) {
                    group.addTask {
                        for request in 0..<\(requestsPerWorker) {
                            // The "network": 0.3-2 ms per request, different for each, so collisions are rare.
                            usleep(UInt32(300 + (worker * 7_919 + request * 104_729) % 1_700))
                            await counter.record(paths[(worker + request) % paths.count])
                        }
                    }
                }
                // Meanwhile the Screen shows the running total: reads race with writes too.
                group.addTask {
                    for frame in 0..<\(requestsPerWorker) {
                        usleep(UInt32(500 + frame * 97))
                        _ = await counter.total
                    }
                }
            }
            var line = "total=\\(await counter.total)"
            for path in paths { line += " \\(path)=\\(await counter.count(of: path))" }
            // Unbuffered: a run that TSan ends with exit code 66 still shows its counts.
            FileHandle.standardOutput.write(Data((line + "\\n").utf8))
        }
        await main()

        """

    public static func runLearner() -> [CheckResult] {
        run(file: ExerciseRoot.current.appendingPathComponent(exerciseFile).path)
    }

    /// Runs every check against the Swift file at `path` (the learner's or the reference).
    public static func run(file path: String) -> [CheckResult] {
        guard let source = FileManager.default.contents(atPath: path) else {
            return [CheckResult(name: "the file is there", passed: false, expected: "a readable \(path)",
                                got: "no such file", hint: 1)]
        }
        let plain = build(source, sanitized: false)
        guard case .success(let plainBinary) = plain else {
            guard case .failure(let message) = plain else { return [] }
            return [CheckResult(name: "compiles with the check's driver", passed: false,
                                expected: "RequestCounter() with record(_:), count(of:) and total, as shipped",
                                got: message, hint: 3)]
        }
        var results = [CheckResult(name: "compiles with the check's driver", passed: true, expected: "", got: "", hint: 3)]

        let plainRun = runDriver(plainBinary)
        results.append(CheckResult(
            name: "counts every request (plain run)", passed: plainRun.line == expectedLine,
            expected: expectedLine, got: plainRun.line ?? plainRun.problem, hint: 2))

        switch build(source, sanitized: true) {
        case .failure(let message):
            results.append(CheckResult(name: "no data race under the thread sanitizer", passed: false,
                                       expected: "a build with -sanitize=thread", got: message, hint: 4))
        case .success(let sanitizedBinary):
            let sanitizedRun = runDriver(sanitizedBinary)
            let report = TSanReport(sanitizedRun.outcome?.stderr ?? "")
            results.append(CheckResult(
                name: "no data race under the thread sanitizer",
                passed: report.races == 0 && sanitizedRun.line == expectedLine,
                expected: "no ThreadSanitizer warning, and \(expectedLine)",
                got: report.races > 0 ? report.summary : (sanitizedRun.line ?? sanitizedRun.problem), hint: 1))
        }
        return results
    }

    // MARK: - Building and running the driver

    enum Build { case success(String), failure(String) }

    /// Compiles the learner's source with the driver; builds are kept by content, so checking
    /// an unchanged file again costs no compile.
    static func build(_ source: Data, sanitized: Bool) -> Build {
        let mode = sanitized ? "tsan" : "plain"
        let key = fnv1a(Array(source) + Array(driverSource.utf8) + Array(mode.utf8))
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("sakusaku-workshop-r1")
        let binary = cache.appendingPathComponent("counter-\(mode)-\(key)").path
        if FileManager.default.isExecutableFile(atPath: binary) { return .success(binary) }

        let work = cache.appendingPathComponent("build-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            try source.write(to: work.appendingPathComponent("RequestCounter.swift"))
            try Data(driverSource.utf8).write(to: work.appendingPathComponent("main.swift"))
            let output = work.appendingPathComponent("counter").path
            let compile = try Subprocess.run(
                "swiftc", ["-swift-version", "6", "-suppress-warnings", "-module-name", "RaceCheck", "-Onone"]
                    + (sanitized ? ["-sanitize=thread"] : []) + ["-o", output, "main.swift", "RequestCounter.swift"],
                currentDirectory: work.path, timeout: 300)
            guard compile.succeeded else {
                let errors = compile.stderr.split(separator: "\n").filter { $0.contains(": error:") && !$0.hasPrefix(" ") }.prefix(2)
                return .failure("swiftc: " + (errors.isEmpty ? compile.describeEnd(timeout: 300) : errors.joined(separator: "; ")))
            }
            // Rename into place: two checks building the same file at once both succeed.
            _ = rename(output, binary)
            return .success(FileManager.default.isExecutableFile(atPath: binary) ? binary : output)
        } catch {
            return .failure("could not compile: \(error)")
        }
    }

    struct DriverRun {
        var outcome: Subprocess.Outcome?
        var line: String?
        var problem: String
    }

    static func runDriver(_ binary: String) -> DriverRun {
        var environment = ProcessInfo.processInfo.environment
        // Keep going after the first report, so the run still prints its counts.
        environment["TSAN_OPTIONS"] = "halt_on_error=0"
        guard let outcome = try? Subprocess.run(binary, [], environment: environment, timeout: 60) else {
            return DriverRun(outcome: nil, line: nil, problem: "could not start \(binary)")
        }
        let line = outcome.stdout.split(separator: "\n").last { $0.hasPrefix("total=") }.map(String.init)
        let problem = outcome.signaled || outcome.timedOut ? "the driver crashed: \(outcome.describeEnd(timeout: 60))"
            : "no count printed (\(outcome.describeEnd(timeout: 60)))"
        return DriverRun(outcome: outcome, line: line, problem: problem)
    }
}

/// The gist of a ThreadSanitizer report on stderr: how many races, and where, demangled.
public struct TSanReport: Sendable {
    public var races: Int
    /// The first report in one line: its kind and its two accesses, with demangled names.
    public var summary: String

    public init(_ stderr: String) {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        races = lines.filter { $0.hasPrefix("WARNING: ThreadSanitizer:") }.count
        guard let start = lines.firstIndex(where: { $0.hasPrefix("WARNING: ThreadSanitizer:") }) else {
            summary = ""
            return
        }
        // "WARNING: ThreadSanitizer: Swift access race (pid=...)": the kind of report.
        let kind = lines[start].dropFirst("WARNING: ThreadSanitizer: ".count).split(separator: "(").first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "race"
        // Each access: "Modifying access of Swift variable at 0x... by thread T3:", then its frame #0.
        var accesses: [String] = []
        var index = start + 1
        while index + 1 < lines.count, !lines[index].hasPrefix("SUMMARY:"), accesses.count < 2 {
            let line = lines[index]
            if line.contains(" by thread ") || line.contains(" by main thread"), line.hasSuffix(":"),
               !line.hasPrefix("Location"), !line.hasPrefix("Thread"), lines[index + 1].hasPrefix("#0 ") {
                let what = line.split(separator: " ").prefix { $0 != "of" && $0 != "at" }.joined(separator: " ")
                let who = line.components(separatedBy: " by ").last?.dropLast() ?? ""
                accesses.append("\(what) by \(who) in \(Self.symbol(ofFrame: lines[index + 1]))")
            }
            index += 1
        }
        summary = Self.demangle("\(kind): " + accesses.joined(separator: "; ")
            + (races > 1 ? " (and \(races - 1) more report(s))" : ""))
    }

    /// "#0 $s9RaceCheck14RequestCounterC6recordyySSF <null> (counter+0x1012cb) (BuildId: ...)"
    /// -> "$s9RaceCheck14RequestCounterC6recordyySSF".
    static func symbol(ofFrame frame: String) -> String {
        let words = frame.split(separator: " ").dropFirst()
        let symbol = words.prefix { !$0.hasPrefix("<") && !$0.hasPrefix("(") && !$0.hasSuffix(".o") && !$0.hasPrefix("/") }
        return symbol.joined(separator: " ")
    }

    /// Swift symbols in a report may be mangled (`$s9RaceCheck14RequestCounterC6recordyySSF`);
    /// `swift demangle` turns them back into `RaceCheck.RequestCounter.record(Swift.String) -> ()`.
    public static func demangle(_ text: String) -> String {
        guard text.contains("$s"), let input = try? writeTemporary(text),
              let outcome = try? Subprocess.run("/bin/sh", ["-c", "swift demangle --simplified < \"$0\"", input], timeout: 30),
              outcome.succeeded, !outcome.stdout.isEmpty else { return text }
        try? FileManager.default.removeItem(atPath: input)
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func writeTemporary(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tsan-\(UUID().uuidString).txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
