import ExerciseChecks
import Foundation
import WorkshopCore

/// Checks a set of exercise files the one way every exercise is checked: compile them with
/// the exercise's driver into a program of their own (swiftc, linked with the ExerciseSupport
/// library), run it in a child process, read its results.
///
/// Nothing of the learner's is ever compiled into the package, so a file in any state (as
/// shipped, half done, solved, not compiling) can break only its own check: a compile error
/// or a crash becomes a failed check. Builds are kept by content in the build folder
/// (`exercise-checks/`), so checking an unchanged file again costs no compile.
///
/// Here: running a check and reading its report. The compile and its cache are in
/// `ExerciseRunner+Compiling`, what a failed compile says in `+CompileErrors`, what a crash or a
/// hang says in `+Crashes`.
public struct ExerciseRunner: Sendable {
    public var toolchain: Toolchain
    public var compileTimeout: Double = 300
    /// Seconds a check program may run before it is stopped and the check says so
    /// (`defaultRunTimeout`: 20, or WORKSHOP_CHECK_TIMEOUT).
    public var runTimeout: Double = ExerciseRunner.defaultRunTimeout
    /// Bytes of memory a check program may take (`defaultMemoryLimit`: 2 GiB, or
    /// WORKSHOP_CHECK_MEMORY_MB; nil: no limit). A thread-sanitized program gets none: the
    /// sanitizer needs terabytes of address space.
    public var memoryLimitBytes: Int? = ExerciseRunner.defaultMemoryLimit
    /// Say what the runner itself writes (a time-out, memory) in Japanese.
    public var japanese = false

    public init(toolchain: Toolchain = .current) {
        self.toolchain = toolchain
    }

    /// The variable that sets `runTimeout` (seconds, more than 0).
    public static let timeoutVariable = "WORKSHOP_CHECK_TIMEOUT"
    /// The variable that sets `memoryLimitBytes` (megabytes; 0: no limit).
    public static let memoryVariable = "WORKSHOP_CHECK_MEMORY_MB"

    /// 20 s, or WORKSHOP_CHECK_TIMEOUT when it holds a number of seconds above 0.
    public static var defaultRunTimeout: Double {
        let text = ProcessInfo.processInfo.environment[timeoutVariable] ?? ""
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { return 20 }
        return seconds
    }

    /// 2 GiB, or WORKSHOP_CHECK_MEMORY_MB (0: no limit). Every reference passes with 512 MiB.
    public static var defaultMemoryLimit: Int? {
        let text = ProcessInfo.processInfo.environment[memoryVariable] ?? ""
        guard let megabytes = Int(text), megabytes >= 0 else { return 2 << 30 }
        return megabytes == 0 ? nil : megabytes << 20
    }

    /// What a check found, and what it cost.
    public struct Report: Sendable {
        public var results: [CheckResult]
        /// Whether the program was compiled now (false: an earlier build of the same files).
        public var compiled = false
        public var compileSeconds = 0.0
        public var runSeconds = 0.0
        /// What the run looked like over time, when the exercise's checks record it.
        public var timeline: CheckTimeline?

        public init(results: [CheckResult], compiled: Bool = false, compileSeconds: Double = 0, runSeconds: Double = 0)
        {
            self.results = results
            self.compiled = compiled
            self.compileSeconds = compileSeconds
            self.runSeconds = runSeconds
        }

        public var passed: Bool { !results.isEmpty && results.allSatisfy(\.passed) }
        /// The checks that ran and failed (not those that did not run).
        public var failed: [CheckResult] { results.filter { !$0.passed && !$0.notRun } }
        /// The checks the program did not get to (it crashed or hung first).
        public var notRun: [CheckResult] { results.filter(\.notRun) }
    }

    /// The name of the check that every exercise has first.
    public static let compileCheck = "compiles with the check's driver"

    /// Checks `sources` (file name -> contents, one for each of `exercise.files`) with
    /// `exercise`'s driver. `hints` (the exercise's hints, if known) lets a crash point at the right one.
    public func check(_ exercise: Exercise, sources: [String: Data], hints: [String] = []) -> Report {
        if let missing = exercise.files.first(where: { sources[$0] == nil }) {
            return Report(results: [
                CheckResult(
                    name: "the exercise file is there", ja: Self.japanese("the exercise file is there"), passed: false,
                    expected: "\(exercise.directory)/\(missing)",
                    got: text(format: "no such file: `swift run workshop reset %@` brings it back", exercise.id),
                    hint: 0)
            ])
        }
        guard let sanitized = toolchain.libraryIsThreadSanitized, sanitized == toolchain.threadSanitizer else {
            let mode =
                toolchain.threadSanitizer ? text("with --sanitize=thread") : text("without --sanitize=thread")
            let got =
                toolchain.libraryIsThreadSanitized == nil
                ? text("not there") : text("built the other way (with or without --sanitize=thread)")
            return Report(results: [
                CheckResult(
                    name: "the checks' library is built", ja: Self.japanese("the checks' library is built"),
                    passed: false,
                    expected: text(format: "%1$@, built %2$@ like this program", toolchain.supportLibrary.path, mode),
                    got: text(
                        format: "%1$@: run `swift build --product ExerciseSupport` (%2$@) first", got, mode),
                    hint: 0)
            ])
        }
        let one = exercise.files.count == 1
        let compileExpected = compileWanted(exercise)
        let started = monotonicSeconds()
        let built: Built
        switch build(exercise, sources: sources, variant: .checks) {
        case .failure(let failure):
            // The learner's own error: their file does not compile, whatever the driver wants.
            let expected =
                failure.inLearnersFiles
                ? (one ? text("your file compiles") : text("your files compile")) : compileExpected
            return Report(
                results: [
                    CheckResult(
                        name: Self.compileCheck, ja: Self.japanese(Self.compileCheck), passed: false,
                        expected: expected, got: failure.description,
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
        } else {
            // Every thread's backtrace, on a crash and on the SIGILL that ends a program that
            // did not finish in time: the learner's frame may be on any of them.
            environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,threads=all,color=no"
        }
        // The program's own children (R1's workloads) end before it is stopped.
        environment[Subprocess.deadlineVariable] = String(Date().timeIntervalSince1970 + runTimeout)
        // The checks' texts in the runner's language, whatever the locale the program inherits says.
        environment[CheckText.languageVariable] = japanese ? Language.ja.rawValue : Language.en.rawValue
        // The files as checked, for a check about the source itself (what it must not say):
        // the compile folder is gone by now, and the files may be no file on disk (a test's copy).
        let sourcesFolder = cacheDirectory.appendingPathComponent("sources-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: sourcesFolder) }
        if (try? writeSources(sources, of: exercise, to: sourcesFolder)) != nil {
            environment[ExerciseDriver.sourcesVariable] = sourcesFolder.path
        }
        let memory: Subprocess.MemoryLimit =
            toolchain.threadSanitizer ? .inherit : memoryLimitBytes.map { .bytes($0) } ?? .inherit

        let ran = monotonicSeconds()
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(
                built.path, [], environment: environment, currentDirectory: cacheDirectory.path, timeout: runTimeout,
                memoryLimit: memory, backtraceOnTimeout: !toolchain.threadSanitizer)
        } catch {
            return Report(results: [
                CheckResult(
                    name: "the checks start", ja: Self.japanese("the checks start"), passed: false,
                    expected: text("a child process running the checks"),
                    got: text(format: "could not start %1$@: %2$@", built.path, "\(error)"), hint: 0)
            ])
        }
        let compiledResult = CheckResult(
            name: Self.compileCheck, ja: Self.japanese(Self.compileCheck), passed: true, expected: compileExpected,
            got: one ? text("it does") : text("they do"), hint: 0)
        let results =
            ExerciseDriver.results(in: outcome.stdout)
            ?? [stoppedResult(outcome, exercise: exercise, sources: sources, hints: hints)]
            + exercise.checks.map { CheckResult.notRun($0, ja: exercise.japaneseCheckNames[$0] ?? $0) }
        var report = Report(
            results: [compiledResult] + results, compiled: compiled, compileSeconds: compileSeconds,
            runSeconds: monotonicSeconds() - ran)
        report.timeline = CheckTimeline.read(in: outcome.stdout)
        return report
    }

    /// The exercise's checks as its `.meta` declares them (the check program asked with
    /// `--list-checks`), compiled with `sources` (the reference, which compiles).
    public func declaredChecks(_ exercise: Exercise, sources: [String: Data]) -> Result<[Check], BuildFailure> {
        let built: Built
        switch build(exercise, sources: sources, variant: .checks) {
        case .failure(let failure): return .failure(failure)
        case .success(let success): built = success
        }
        do {
            let outcome = try Subprocess.run(
                built.path, [ExerciseDriver.listArgument], currentDirectory: cacheDirectory.path, timeout: runTimeout)
            guard let checks = ExerciseDriver.checks(in: outcome.stdout) else {
                return .failure(
                    BuildFailure(
                        "the driver printed no checks for \(ExerciseDriver.listArgument): does it call ExerciseDriver.run(_:_:)? "
                            + outcome.describeEnd(timeout: runTimeout)))
            }
            return .success(checks)
        } catch {
            return .failure(BuildFailure("could not start \(built.path): \(error)"))
        }
    }

    /// Writes the learner's files into `folder`, by name, for the program to read.
    func writeSources(_ sources: [String: Data], of exercise: Exercise, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in exercise.files { try sources[file]?.write(to: folder.appendingPathComponent(file)) }
    }

    /// What the compile check wants, in the runner's language (`uses`: what the driver calls,
    /// when not the catalog's).
    public func compileWanted(_ exercise: Exercise, uses: String? = nil) -> String {
        let uses = uses ?? self.uses(exercise)
        return exercise.files.count == 1
            ? text(format: "your file compiles with the check's driver, which uses %@", uses)
            : text(format: "your files compile with the check's driver, which uses %@", uses)
    }

    /// What the driver uses in the learner's files, in the runner's language.
    func uses(_ exercise: Exercise) -> String { japanese ? exercise.usesJapanese : exercise.uses }

    /// The Japanese name of a check the runner itself reports (the compile check, a crash).
    static func japanese(_ name: String) -> String { localized(name, in: .ja) }

    /// A text of the runner's table (Resources/ja.lproj) in the runner's language.
    func text(_ english: String) -> String { localized(english, in: japanese ? .ja : .en) }

    /// A format of the checks' table in the runner's language, filled in.
    func text(format english: String, _ arguments: any CVarArg...) -> String {
        String(format: text(english), locale: nil, arguments: arguments)
    }
}
