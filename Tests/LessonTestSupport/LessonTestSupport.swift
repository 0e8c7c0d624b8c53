import Foundation
import WorkshopCore
import WorkshopServer

/// A lesson program built next to the tests, driven the way a learner or a script drives it.
public struct LessonBinary: Sendable {
    public let name: String
    public let path: String

    public struct NotBuilt: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "\(name) is not built next to the tests; run `swift build` first" }
    }

    /// `LessonBinary("lesson03")`: the product built next to the running test bundle.
    public init(_ name: String) throws {
        guard let path = Subprocess.builtProduct(name) else { throw NotBuilt(name: name) }
        self.name = name
        self.path = path
    }

    /// Runs the program with `arguments` and no terminal, bounded by `timeout` seconds.
    ///
    /// Unless the test asks for its own, the run measures the machine for 0.1 s instead of the
    /// default second: the CLI tests check what the program says and does, not how busy the
    /// machine is, and a second per run was a quarter of the learner's suite.
    ///
    /// For the same reason the run takes the machine as quiet (`SAKUSAKU_MACHINE=quiet`): a suite
    /// runs three lessons side by side on two cores, and a busy run's takeaway compares nothing.
    /// `machine` "busy" makes it busy; nil leaves it to what the run measures.
    ///
    /// The program speaks English whatever the tester's locale (the locale variables are taken
    /// out) unless `locale` gives them: `["LANG": "ja_JP.UTF-8"]`.
    public func run(
        _ arguments: [String], timeout: Double = 60, locale: [String: String] = [:], machine: String? = "quiet"
    ) throws -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment[MachineVerdict.Probe.variable] = machine
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[name] = locale[name] }
        let control = arguments.contains("--control-seconds") ? [] : ["--control-seconds", "0.1"]
        let started = Stopwatch()
        let outcome = try Subprocess.run(path, arguments + control, environment: environment, timeout: timeout)
        return Outcome(process: outcome, seconds: started.elapsed)
    }

    /// Runs with `--json` and `arguments` (the short runs a lesson's own tests make): the report,
    /// or an error saying why there is none.
    public func report(_ arguments: [String], timeout: Double = 90) throws -> LessonDocument {
        let outcome = try run(["--json"] + arguments, timeout: timeout)
        guard outcome.status == 0, !outcome.timedOut, let document = outcome.document else {
            throw NoReport(
                description: "\(name) --json \(arguments): exit status \(outcome.status)"
                    + (outcome.timedOut ? ", stopped after \(timeout) s" : "")
                    + "\n\(outcome.stderr)\n\(outcome.stdout)")
        }
        return document
    }

    public struct NoReport: Error, CustomStringConvertible {
        public let description: String
    }

    /// What one run printed and how it ended.
    public struct Outcome: Sendable {
        public var process: Subprocess.Outcome
        /// Wall-clock seconds the run took (for bounds like "ended within 2 x timeout").
        public var seconds: Double
        public var status: Int32 { process.status }
        public var stdout: String { process.stdout }
        public var stderr: String { process.stderr }
        public var timedOut: Bool { process.timedOut }

        /// stdout as the report's JSON document (nil when it is not one JSON object).
        public var document: LessonDocument? { LessonDocument(json: stdout) }

        /// What is wrong with this run as the end of one against a server nobody listens on
        /// (`--server http://127.0.0.1:9`); empty when nothing is. Wanted: exit status 1, the
        /// cause ("connection refused") said once, and no table of runs that never started.
        public var refusedConnectionProblems: [String] {
            var problems: [String] = []
            if status != 1 { problems.append("exit status \(status), not 1") }
            if !stderr.contains("connection refused") {
                problems.append("stderr lacks 'connection refused': \(stderr)")
            }
            if stdout.contains(MetricName.mainThreadMaxStallSeconds.rawValue) {
                problems.append("a table of runs that never started")
            }
            let mentions = (stdout + stderr).components(separatedBy: "connection refused").count - 1
            if mentions != 1 { problems.append("the cause is said \(mentions) times, not once:\n\(stdout)\n\(stderr)") }
            return problems
        }
    }
}

extension LessonBinary.Outcome {
    /// The lanes of each "Where the time went" timeline in a human report, in the order the runs
    /// were printed (`main`, `rows-queue`, `task pool`...): where the run's work was recorded,
    /// each lane a thread or queue. Evidence no load can fake, read from a program's own run.
    public var timelineLanes: [Set<String>] {
        var timelines: [Set<String>] = []
        var lanes: Set<String>?
        for line in stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Where the time went") {
                lanes = []
            } else if lanes != nil, let lane = line.firstMatch(of: /^(\S.*?) +\|.*\|$/) {
                lanes?.insert(String(lane.1))
            } else if let ended = lanes {
                timelines.append(ended)
                lanes = nil
            }
        }
        return timelines + (lanes.map { [$0] } ?? [])
    }
}

/// The report a lesson prints with `--json`, read back.
public struct LessonDocument: @unchecked Sendable {  // @unchecked: immutable after init (JSON objects)
    public let object: [String: Any]

    public init?(json: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return nil
        }
        self.object = object
    }

    public var lesson: String? { object["lesson"] as? String }
    public var parameters: [String: Any] { object["parameters"] as? [String: Any] ?? [:] }
    public var variantNames: [String] { variants.compactMap { $0["name"] as? String } }
    public var variants: [[String: Any]] { object["variants"] as? [[String: Any]] ?? [] }

    /// The metrics of the variant named `name`.
    public func metrics(_ name: String) -> [String: Any] {
        variants.first { $0["name"] as? String == name }?["metrics"] as? [String: Any] ?? [:]
    }

    /// The failure recorded for the variant named `name`, if it failed.
    public func failure(_ name: String) -> String? {
        variants.first { $0["name"] as? String == name }?["failure"] as? String
    }

    /// Each metric of `keys` some variant lacks, as "threaded lacks requestsServed" (empty: none).
    public func lacking(_ keys: [MetricName]) -> [String] {
        variantNames.flatMap { name in keys.filter { metrics(name)[$0] == nil }.map { "\(name) lacks \($0)" } }
    }

    /// The count metric `key` of every variant, in order (nil where a variant has none).
    public func counts(_ key: MetricName) -> [Int?] { variantNames.map { metrics($0)[key] as? Int } }
}

extension Dictionary where Key == String {
    /// A figure of the JSON report by its typed name: `metrics[.totalSeconds]`.
    public subscript(name: MetricName) -> Value? { self[name.rawValue] }
}

/// A fixture server on 127.0.0.1 for one test, with the endpoint lessons take.
public final class TestServer: Sendable {
    public let server: FixtureServer
    public let endpoint: FixtureEndpoint

    public init(latency: Double = 0, bandwidth: Int = 0, timeout: Double = 10) throws {
        server = FixtureServer(knobs: ServerKnobs(latencySeconds: latency, bandwidthBytesPerSecond: bandwidth))
        endpoint = FixtureEndpoint(
            baseURL: try server.start(), server: server, knobs: server.knobs, timeoutSeconds: timeout)
    }

    public func stop() { server.stop() }
}

/// Runs `attempt` up to `tries` times, until `passes` holds, and returns the last result for
/// the test to assert on. For timing ratios only: they are about the code, but on a shared
/// 2-core machine another process can hold a core (and so the main thread) for a moment.
/// A variant that is really slow fails every try.
public func firstPassing<T>(tries: Int = 3, passes: (T) -> Bool, _ attempt: () throws -> T) rethrows -> T {
    var result = try attempt()
    for _ in 1..<max(1, tries) where !passes(result) { result = try attempt() }
    return result
}

extension VariantRun {
    /// The lanes the run's spans were recorded in, but for the spans named in `names` (the
    /// controller's own "show" or "reload", on main in every variant). Evidence no load can
    /// fake: synchronous work (`Trace.measure`) that ran on main is recorded on "main" whatever
    /// lane its code names, however late the machine ran it.
    public func lanes(excluding names: Set<String> = []) -> Set<String> {
        Set(trace.recorded.filter { !names.contains($0.name) }.map(\.lane))
    }
}

/// Checks `condition` every few milliseconds until it holds or `timeout` seconds pass, and says
/// whether it held. For an async test waiting on something nobody signals (a server's counter):
/// it sleeps between checks instead of holding a thread of the pool that the awaited work needs.
public func waitUntil(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = monotonicSeconds() + timeout
    while !condition() {
        if monotonicSeconds() >= deadline { return false }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}

extension VariantRun {
    /// Whether this run kept the main thread far freer than `blocking`, which did the job on it:
    /// a worst freeze and a first content each under a quarter of its, and fewer frames dropped.
    /// What a pair test retries a busy machine's run on (`firstPassing`): another program holding
    /// main's core for a moment only ever lengthens a freeze.
    public func keptMainFarFreer(than blocking: VariantRun) -> Bool {
        screen.maxStallSeconds < 0.25 * blocking.screen.maxStallSeconds
            && (screen.firstContentSeconds ?? .infinity) < 0.25 * (blocking.screen.firstContentSeconds ?? 0)
            && screen.droppedFrames < blocking.screen.droppedFrames
    }
}
