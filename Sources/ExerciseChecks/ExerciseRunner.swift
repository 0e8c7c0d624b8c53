import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a set of exercise files the one way every exercise is checked: compile them with
/// the exercise's driver into a program of their own (swiftc, linked with the ExerciseSupport
/// library), run it in a child process, read its results.
///
/// Nothing of the learner's is ever compiled into the package, so a file in any state (as
/// shipped, half done, solved, not compiling) can break only its own check: a compile error
/// or a crash becomes a failed check. Builds are kept by content in the build folder
/// (`exercise-checks/`), so checking an unchanged file again costs no compile.
public struct ExerciseRunner: Sendable {
    public var toolchain: Toolchain
    public var compileTimeout: Double = 300
    public var runTimeout: Double = 300

    public init(toolchain: Toolchain = .current) {
        self.toolchain = toolchain
    }

    /// What a check found, and what it cost.
    public struct Report: Sendable {
        public var results: [CheckResult]
        /// Whether the program was compiled now (false: an earlier build of the same files).
        public var compiled = false
        public var compileSeconds = 0.0
        public var runSeconds = 0.0
        public var passed: Bool { !results.isEmpty && results.allSatisfy(\.passed) }
        public var failed: [CheckResult] { results.filter { !$0.passed } }
    }

    /// The name of the check that every exercise has first.
    public static let compileCheck = "compiles with the check's driver"

    /// Checks `sources` (file name -> contents, one for each of `exercise.files`) with
    /// `exercise`'s driver. `hints` (the exercise's hints, if known) lets a crash point at the right one.
    public func check(_ exercise: Exercise, sources: [String: Data], hints: [String] = []) -> Report {
        if let missing = exercise.files.first(where: { sources[$0] == nil }) {
            return Report(results: [
                CheckResult(
                    name: "the exercise file is there", passed: false,
                    expected: "\(exercise.directory)/\(missing)",
                    got: "no such file: `swift run workshop reset \(exercise.id)` brings it back", hint: 0)
            ])
        }
        guard let sanitized = toolchain.libraryIsThreadSanitized, sanitized == toolchain.threadSanitizer else {
            let mode = toolchain.threadSanitizer ? "with --sanitize=thread" : "without --sanitize=thread"
            let got =
                toolchain.libraryIsThreadSanitized == nil
                ? "not there" : "built the other way (with or without --sanitize=thread)"
            return Report(results: [
                CheckResult(
                    name: "the checks' library is built", passed: false,
                    expected: "\(toolchain.supportLibrary.path), built \(mode) like this program",
                    got: got + ": run `swift build --product ExerciseSupport` (\(mode)) first", hint: 0)
            ])
        }
        let one = exercise.files.count == 1
        let compileExpected =
            (one ? "your file compiles" : "your files compile")
            + " with the check's driver, which uses \(exercise.uses)"
        let started = monotonicSeconds()
        let built: Built
        switch build(exercise, sources: sources, variant: .checks) {
        case .failure(let failure):
            return Report(
                results: [
                    CheckResult(
                        name: Self.compileCheck, passed: false, expected: compileExpected, got: failure.description,
                        hint: 0)
                ], compiled: true, compileSeconds: monotonicSeconds() - started)
        case .success(let success): built = success
        }
        var environment = ProcessInfo.processInfo.environment
        var compiled = built.fresh
        if exercise.threadSanitizedWorkload {
            switch build(exercise, sources: sources, variant: .threadSanitizedWorkload) {
            case .success(let sanitized):
                environment[ExerciseDriver.sanitizedBuildVariable] = sanitized.path
                compiled = compiled || sanitized.fresh
            case .failure(let failure):
                environment[ExerciseDriver.sanitizedBuildErrorVariable] = failure.description
            }
        }
        let compileSeconds = monotonicSeconds() - started
        if toolchain.threadSanitizer {
            // Swift's crash reporter and the sanitizer fight over a crashing process (the
            // reporter then dies of SIGSEGV, or the sanitizer exits 66), hiding the real signal.
            environment["SWIFT_BACKTRACE"] = "enable=no"
        }

        let ran = monotonicSeconds()
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(
                built.path, [], environment: environment, currentDirectory: cacheDirectory.path, timeout: runTimeout)
        } catch {
            return Report(results: [
                CheckResult(
                    name: "the checks start", passed: false, expected: "a child process running the checks",
                    got: "could not start \(built.path): \(error)", hint: 0)
            ])
        }
        let compiledResult = CheckResult(
            name: Self.compileCheck, passed: true, expected: compileExpected, got: one ? "it does" : "they do", hint: 0)
        let results = ExerciseDriver.results(in: outcome.stdout) ?? [crashResult(outcome, hints: hints)]
        return Report(
            results: [compiledResult] + results, compiled: compiled, compileSeconds: compileSeconds,
            runSeconds: monotonicSeconds() - ran)
    }

    // MARK: - Compiling

    enum Variant: String {
        /// The driver and the learner's files, linked with the support library.
        case checks
        /// The same, thread-sanitized, without the library (`-D WORKLOAD_ONLY`): a
        /// sanitized program must not load an unsanitized library, or it sees no race.
        case threadSanitizedWorkload = "tsan"
    }

    struct Built {
        var path: String
        var fresh: Bool
    }

    /// Where the builds are kept: in the build folder, so `rm -rf .build` clears them too.
    public var cacheDirectory: URL { toolchain.binDirectory.appendingPathComponent("exercise-checks") }

    func arguments(_ exercise: Exercise, _ variant: Variant) -> [String] {
        var arguments = [
            "-swift-version", "6", "-suppress-warnings", "-diagnostic-style=llvm", "-Onone", "-g",
            "-module-name", exercise.moduleName,
        ]
        switch variant {
        case .checks:
            let bin = toolchain.binDirectory.path
            arguments += ["-I", bin + "/Modules"] + toolchain.moduleMapDirectories.flatMap { ["-I", $0] }
            arguments += ["-L", bin, "-lExerciseSupport", "-Xlinker", "-rpath", "-Xlinker", bin]
            if toolchain.threadSanitizer { arguments.append("-sanitize=thread") }
        case .threadSanitizedWorkload:
            arguments += ["-sanitize=thread", "-D", "WORKLOAD_ONLY"]
        }
        return arguments
    }

    /// Compiles the files with the driver, or finds the build of the same files made before.
    func build(_ exercise: Exercise, sources: [String: Data], variant: Variant) -> Result<Built, BuildFailure> {
        let arguments = arguments(exercise, variant)
        // Everything the program depends on: the sources, the flags, and the library build.
        var identity = Data((arguments + [exercise.driver, libraryStamp]).joined(separator: "\0").utf8)
        for file in exercise.files {
            identity += Data("\0\(file)\0".utf8) + (sources[file] ?? Data())
        }
        let binary = cacheDirectory.appendingPathComponent(
            "exercise\(exercise.id)-\(variant.rawValue)-\(fingerprint(identity))"
        ).path
        if FileManager.default.isExecutableFile(atPath: binary) { return .success(Built(path: binary, fresh: false)) }

        let work = cacheDirectory.appendingPathComponent("build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            // The same relative paths as in the package, so the compiler's messages and a
            // crash's backtrace name the learner's file as they know it.
            let folder = work.appendingPathComponent(exercise.directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: work.appendingPathComponent("check-driver"), withIntermediateDirectories: true)
            for file in exercise.files { try sources[file]?.write(to: folder.appendingPathComponent(file)) }
            try Data(exercise.driver.utf8).write(to: work.appendingPathComponent("check-driver/main.swift"))
            let output = "exercise\(exercise.id)"
            let compile = try Subprocess.run(
                "swiftc",
                arguments + ["-debug-prefix-map", "\(work.path)=.", "-o", output, "check-driver/main.swift"]
                    + exercise.paths,
                currentDirectory: work.path, timeout: compileTimeout)
            guard compile.succeeded else {
                let errors = Self.compilerErrors(compile.stdout + "\n" + compile.stderr)
                return .failure(BuildFailure(errors ?? "swiftc: \(compile.describeEnd(timeout: compileTimeout))"))
            }
            // Rename into place: two checks building the same files at once both succeed.
            _ = rename(work.appendingPathComponent(output).path, binary)
            prune(keeping: binary)
            return .success(Built(path: binary, fresh: true))
        } catch {
            return .failure(BuildFailure("could not compile: \(error)"))
        }
    }

    /// How many builds of one exercise (and variant) are kept: the learner's last few versions.
    static let buildsKept = 12

    /// Deletes the older builds of the same exercise and variant as `binary` beyond
    /// `buildsKept`, and work folders an interrupted compile left behind an hour ago or more.
    func prune(keeping binary: String) {
        let files = FileManager.default
        let prefix =
            URL(fileURLWithPath: binary).lastPathComponent.split(separator: "-").dropLast()
            .joined(separator: "-") + "-"
        let names = (try? files.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []
        func modified(_ name: String) -> Date {
            let path = cacheDirectory.appendingPathComponent(name).path
            return (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? .distantPast
        }
        let builds = names.filter { $0.hasPrefix(prefix) }.map { ($0, modified($0)) }.sorted { $0.1 > $1.1 }
        let stale = names.filter { $0.hasPrefix("build-") && modified($0) < Date(timeIntervalSinceNow: -3_600) }
        for name in builds.dropFirst(Self.buildsKept).map(\.0) + stale {
            try? files.removeItem(at: cacheDirectory.appendingPathComponent(name))
        }
    }

    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Size and time of the support library: a rebuilt library means new builds.
    var libraryStamp: String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: toolchain.supportLibrary.path)
        let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(attributes?[.size] as? Int ?? 0) \(time)"
    }

    /// The compiler's first errors, each with its source line and caret; nil when it printed none.
    static func compilerErrors(_ output: String, limit: Int = 3) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let errors = lines.indices.filter { lines[$0].contains(": error: ") && !lines[$0].hasPrefix(" ") }
        guard !errors.isEmpty else { return nil }
        var shown: [String] = []
        for index in errors.prefix(limit) {
            shown.append(lines[index])
            // llvm style: the source line, then the caret under the spot.
            if index + 2 < lines.count, lines[index + 2].contains("^"), !lines[index + 1].contains(": error: ") {
                shown += [lines[index + 1], lines[index + 2]]
            }
        }
        if errors.count > limit { shown.append("(and \(counted(errors.count - limit, "more error")))") }
        if shown.contains(where: { $0.hasPrefix("check-driver/") }) {
            shown.append("(check-driver/main.swift is the check's program: it uses the names your file had as shipped)")
        }
        return shown.joined(separator: "\n")
    }

    // MARK: - A driver that ended without results

    /// The driver crashed, trapped or hung before it printed its results.
    func crashResult(_ outcome: Subprocess.Outcome, hints: [String]) -> CheckResult {
        let lines = outcome.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // Swift's crash reporter names the signal first ("*** Signal 4: Backtracing...").
        var ended = outcome
        if let reported = lines.first(where: { $0.hasPrefix("*** Signal ") }),
            let number = Int32(reported.dropFirst("*** Signal ".count).prefix { $0.isNumber })
        {
            ended.signaled = true
            ended.status = number
        }
        let trapped = ended.signaled && (ended.status == SIGILL || ended.status == SIGTRAP)
        // libdispatch's "Block was expected to execute on queue", or its frame in the backtrace.
        let offMain =
            outcome.stderr.contains("Block was expected to execute on queue")
            || outcome.stderr.contains("dispatch_assert_queue")
        var got = ended.describeEnd(timeout: runTimeout)
        if let fatal = lines.first(where: { $0.contains("Fatal error") || $0.contains("Precondition failed") })
            ?? lines.first(where: { $0.hasPrefix("*** Program crashed") })
        {
            got += ": " + fatal.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        }
        if let place = Self.crashSite(lines) { got += ", in \(place)" }
        var expected = "the checks run to the end"
        if offMain {
            expected = "the Screen and its table touched only on the main queue (this trap is its check)"
        } else if trapped {
            expected = "no trap (a failed precondition; here most often the Screen touched off the main queue)"
        }
        var hint = 0
        if offMain || trapped,
            let index = hints.firstIndex(where: { $0.contains("DispatchQueue.main") || $0.contains("main queue") })
        {
            hint = index + 1  // the hint that talks about the main queue, if the exercise has one
        }
        return CheckResult(
            name: "your code runs without a crash", passed: false, expected: expected, got: got, hint: hint)
    }

    /// The first frame of a crash's backtrace in the learner's files:
    /// "loadIcons(for:into:using:imageQueue:) at Exercises/03-icons-off-main/IconLoader.swift:21:13".
    static func crashSite(_ lines: [String]) -> String? {
        for line in lines {
            // "3 [ra] 0x000055a02fbf7fb1 closure #1 in f(_:) + 32 in exercise03 at Exercises/x/A.swift:2:13"
            guard let at = line.range(of: " at Exercises/", options: .backwards),
                let address = line.range(of: " 0x")
            else { continue }
            let head = line[address.upperBound..<at.lowerBound].drop { $0 != " " }.dropFirst()
            let function = head.components(separatedBy: " + ").first ?? String(head)
            return "\(function) at \(line[line.index(after: at.lowerBound)...].dropFirst(3))"
        }
        return nil
    }
}
