import ExerciseChecks
import Foundation
import WorkshopCore

/// Runs an exercise's checks the safe way: in a child process (this same program, hidden
/// subcommand `_run-checks`), so a trap or crash in the learner's code becomes a failed check
/// with a hint instead of the end of the CLI. The child has a real main thread, which the
/// checks need (the Screen lives on the main queue).
struct CheckRunner {
    let workspace: Workspace
    /// Rebuild this program first when an exercise file is newer than it (the checks run the
    /// exercise code compiled into it). Off for tests and CI, which build beforehand.
    var rebuild = true
    var childTimeout: Double = 300

    /// The marker line the child prints its results on.
    static let marker = "WORKSHOP-RESULTS "

    struct WireResult: Codable {
        var name: String
        var passed: Bool
        var expected: String
        var got: String
        var hint: Int
    }

    /// Whether this program was built with `-sanitize=thread` (as `swift test --sanitize=thread` builds it).
    static let builtWithThreadSanitizer: Bool = {
        #if os(Linux)
        return dlsym(nil, "__tsan_init") != nil
        #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
        #endif
    }()

    /// This program's own path (the child is this program again).
    static var executable: String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            // After `watch` rebuilt the program, the file this process started from is gone and
            // the link reads "... (deleted)": the new build at the same path is the one to run.
            let deleted = " (deleted)"
            return path.hasSuffix(deleted) ? String(path.dropLast(deleted.count)) : path
        }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs the checks of `suite` against the learner's file (or, with `reference`, against
    /// the reference solution of a suite that can check a file by path).
    func run(_ suite: any ExerciseCheckSuite.Type, reference: Bool = false, rehearseTrap: Bool = false) -> [CheckResult] {
        if let problem = prepare(suite) { return [problem] }
        var arguments = ["_run-checks", suite.id]
        if reference { arguments.append("--reference") }
        if rehearseTrap { arguments.append("--rehearse-trap") }
        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = workspace.root.path
        if Self.builtWithThreadSanitizer {
            // Swift's crash reporter and the sanitizer fight over a crashing process (the
            // reporter then dies of SIGSEGV, or the sanitizer exits 66), hiding the real signal.
            environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(Self.executable, arguments, environment: environment,
                                         currentDirectory: workspace.root.path, timeout: childTimeout)
        } catch {
            return [CheckResult.make(name: "the checks start", passed: false, expected: "a child process running the checks",
                                got: "could not start \(Self.executable): \(error)", hint: 1)]
        }
        if let line = outcome.stdout.split(separator: "\n").last(where: { $0.hasPrefix(Self.marker) }),
           let wire = try? JSONDecoder().decode([WireResult].self, from: Data(line.dropFirst(Self.marker.count).utf8)) {
            return wire.map { CheckResult.make(name: $0.name, passed: $0.passed, expected: $0.expected, got: $0.got, hint: $0.hint) }
        }
        return [crashResult(suite, outcome)]
    }

    /// The child ended without results: the learner's code trapped or crashed (or hung).
    func crashResult(_ suite: any ExerciseCheckSuite.Type, _ outcome: Subprocess.Outcome) -> CheckResult {
        let lines = outcome.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // Swift's crash reporter names the signal first ("*** Signal 4: Backtracing..."); under
        // the thread sanitizer the reporter itself may then crash with another signal.
        var ended = outcome
        if let reported = lines.first(where: { $0.hasPrefix("*** Signal ") }),
           let number = Int32(reported.dropFirst("*** Signal ".count).prefix { $0.isNumber }) {
            ended.signaled = true
            ended.status = number
        }
        let trapped = ended.signaled && (ended.status == SIGILL || ended.status == SIGTRAP)
        // libdispatch's "Block was expected to execute on queue", or its frame in the backtrace.
        let offMain = outcome.stderr.contains("Block was expected to execute on queue")
            || outcome.stderr.contains("dispatch_assert_queue")
        var got = ended.describeEnd(timeout: childTimeout)
        if let fatal = lines.first(where: { $0.contains("Fatal error") || $0.contains("Precondition failed") })
            ?? lines.first(where: { $0.hasPrefix("*** Program crashed") }) {
            got += ": " + fatal.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        }
        if let place = Self.crashSite(lines, root: workspace.root.path) { got += ", in \(place)" }
        var expected = "the checks run to the end"
        if offMain {
            expected = "the Screen and its table touched only on the main queue (this trap is its check)"
        } else if trapped {
            expected = "no trap (a failed precondition; here most often the Screen touched off the main queue)"
        }
        var hint = 1
        if offMain || trapped {
            // Point at the hint that talks about the main queue, if the exercise has one.
            let hints = workspace.hints(for: suite)
            if let index = hints.firstIndex(where: { $0.contains("DispatchQueue.main") || $0.contains("main queue") }) {
                hint = index + 1
            }
        }
        return CheckResult.make(name: "your code runs without a crash", passed: false, expected: expected, got: got, hint: hint)
    }

    /// The first frame of the crash backtrace that is in the learner's (or the CLI's) code
    /// rather than in the core or the checks: "loadIcons(...) at Exercises/03-.../IconLoader.swift:21".
    static func crashSite(_ lines: [String], root: String) -> String? {
        for line in lines where line.contains(" at /") && line.contains(" in ") {
            guard let at = line.range(of: " at /", options: .backwards) else { continue }
            let file = String(line[line.index(at.lowerBound, offsetBy: 4)...])
            if file.contains("/Sources/WorkshopCore/") || file.contains("/Sources/ExerciseChecks/") { continue }
            // "  4 [ra] 0x000055b87af8542b closure #1 in RunChecks.run() + 26 in workshop at /..."
            let head = line[..<at.lowerBound]
            guard let address = head.range(of: "0x") else { continue }
            let afterAddress = head[address.upperBound...].drop { $0 != " " }.dropFirst()
            let function = afterAddress.components(separatedBy: " + ").first ?? String(afterAddress)
            let relative = file.hasPrefix(root + "/") ? String(file.dropFirst(root.count + 1)) : file
            return "\(function) at \(relative)"
        }
        return nil
    }

    // MARK: - Is this program's copy of the exercise the learner's file?

    /// Nil when the checks can run; otherwise a failed check saying why not.
    func prepare(_ suite: any ExerciseCheckSuite.Type) -> CheckResult? {
        // These checks compile the learner's file themselves.
        if suite is any ChecksCompileTheFile.Type { return nil }
        let file = workspace.path(suite.exerciseFile)
        guard let fingerprint = ShippedFile.fingerprint(of: file) else {
            return CheckResult.make(name: "the exercise file is there", passed: false, expected: "a readable \(suite.exerciseFile)",
                               got: "no such file (workshop reset \(suite.id) brings it back)", hint: 1)
        }
        guard workspace.isBuildRoot else {
            // A copy elsewhere: the code in this program is the code in the build root's file.
            let builtFile = ExerciseRoot.builtFrom.appendingPathComponent(suite.exerciseFile).path
            if ShippedFile.fingerprint(of: builtFile) == fingerprint { return nil }
            return CheckResult.make(name: "the workshop was built from this file", passed: false,
                               expected: "\(suite.exerciseFile) as compiled into this program (\(ExerciseRoot.builtFrom.path))",
                               got: "a different file in \(workspace.root.path): run `swift run workshop` from there", hint: 1)
        }
        guard rebuild, isNewerThanThisProgram(suite) else { return nil }
        Style.line(Style.dim("Your file changed: rebuilding the workshop (swift build --product workshop)..."))
        let build: Subprocess.Outcome
        do {
            build = try Subprocess.run("swift", ["build", "--product", "workshop"] + buildFlags,
                                       currentDirectory: workspace.root.path, timeout: 900)
        } catch {
            return CheckResult.make(name: "your file compiles", passed: false, expected: "swift build to run",
                               got: "could not run swift build: \(error)", hint: 1)
        }
        guard build.succeeded else {
            let errors = (build.stdout + "\n" + build.stderr).split(separator: "\n")
                .filter { $0.contains(": error:") && !$0.hasPrefix(" ") }.prefix(4)
                .map { $0.replacingOccurrences(of: workspace.root.path + "/", with: "") }
            return CheckResult.make(name: "your file compiles", passed: false, expected: "swift build without errors",
                               got: errors.isEmpty ? build.describeEnd(timeout: 900) : errors.joined(separator: "\n                "),
                               hint: 1)
        }
        return nil
    }

    /// Builds the same configuration as the running program (`-c release` if it is one).
    var buildFlags: [String] { Self.executable.contains("/release/") ? ["-c", "release"] : [] }

    func isNewerThanThisProgram(_ suite: any ExerciseCheckSuite.Type) -> Bool {
        guard let built = modificationDate(Self.executable) else { return false }
        return sourceFiles(suite).contains { (modificationDate($0) ?? .distantPast) > built }
    }

    func sourceFiles(_ suite: any ExerciseCheckSuite.Type) -> [String] {
        let folder = workspace.path(suite.directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
