import ExerciseChecks
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

    /// The compiler's cache of the C and system modules a check imports (Foundation's, SQLite's,
    /// zlib's), kept with the builds rather than in `~/.cache/clang`, so `rm -rf .build` clears
    /// it too. Its entries are keyed by the compile's flags, the work folder's path among them
    /// (`-debug-prefix-map`): see `buildSlots`.
    var moduleCache: URL { cacheDirectory.appendingPathComponent("ModuleCache") }

    /// The folders a compile works in (`slot-0` …), a few with fixed names, each held with a
    /// `FileLock` for the compile. A folder of its own per compile (a UUID) gave every compile
    /// other flags, so every check a learner ran wrote 17 MB more of module cache that nothing
    /// read again (measured: three checks of 02, three new entries; a day of CI runs filled
    /// 75 GB). With fixed names there are at most `buildSlots` entries.
    static let buildSlots = 4

    /// The language a learner's file is compiled in: the package's own (Package.swift), Swift 6
    /// with the two upcoming features Xcode 26's "Approachable Concurrency" turns on in a new app
    /// project (off in Swift 6.2 and 6.3 unless asked for). A `nonisolated` async function runs on
    /// its caller's actor and `@concurrent` is how such a function leaves it (SE-0461), and a
    /// conformance may take its type's isolation (SE-0470). The editor's flags
    /// (`compile_flags.txt`) say the same.
    public static let languageFlags = [
        "-swift-version", "6", "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
        "-enable-upcoming-feature", "InferIsolatedConformances",
    ]

    func arguments(_ exercise: Exercise, _ variant: Variant) -> [String] {
        var arguments =
            Self.languageFlags + [
                "-suppress-warnings", "-diagnostic-style=llvm", "-Onone", "-g", "-module-name", exercise.moduleName,
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
        if variant == .checks {
            for name in exercise.checkSources.keys.sorted() {
                identity += Data("\0\(name)\0\(exercise.checkSources[name] ?? "")".utf8)
            }
        }
        for file in exercise.files {
            identity += Data("\0\(file)\0".utf8) + (sources[file] ?? Data())
        }
        let binary = cacheDirectory.appendingPathComponent(
            "exercise\(exercise.id)-\(variant.rawValue)-\(fingerprint(identity))"
        ).path
        if FileManager.default.isExecutableFile(atPath: binary) { return .success(Built(path: binary, fresh: false)) }

        // A free folder, else wait for one as long as the compile in it may take.
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let slots = (0..<Self.buildSlots).map { cacheDirectory.appendingPathComponent("slot-\($0)") }
        guard let (index, lock) = FileLock.take(anyOf: slots.map { $0.path + ".lock" }, timeout: compileTimeout)
        else {
            return .failure(
                BuildFailure(
                    "every compile folder (\(cacheDirectory.path)/slot-*) stayed busy for \(Int(compileTimeout)) s: end the other `workshop` commands that are checking, then check again"
                ))
        }
        defer { lock.release() }
        let work = slots[index]
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            try? FileManager.default.removeItem(at: work)  // what a killed compile left there
            // The same relative paths as in the package, so the compiler's messages and a
            // crash's backtrace name the learner's file as they know it.
            let folder = work.appendingPathComponent(exercise.directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: work.appendingPathComponent("check-driver"), withIntermediateDirectories: true)
            for file in exercise.files { try sources[file]?.write(to: folder.appendingPathComponent(file)) }
            try Data(exercise.driver.utf8).write(to: work.appendingPathComponent("check-driver/main.swift"))
            // The checks, and the types the learner's files code against: beside the driver.
            // Not in the sanitized workload, which is the learner's code and the driver alone.
            let checks = variant == .checks ? exercise.checkSources.keys.sorted() : []
            for name in checks {
                try Data((exercise.checkSources[name] ?? "").utf8).write(
                    to: work.appendingPathComponent("check-driver/" + name))
            }
            let output = "exercise\(exercise.id)"
            // One compiler job for all the files (-wmo), so that every file's errors are
            // reported, in the order the compiler finds them. Without it swiftc first ran a job
            // that only emits the module, skipping function bodies, and stopped at its errors;
            // and the jobs that compile stopped at the first that failed: a `{` missing in the
            // learner's function showed only as "extraneous '}' at top level", and an error in
            // the driver hid the learner's own. One job is also the quicker here: a fresh check of
            // a one-file exercise with a 7-line driver compiled in 1.8 s (median of 8) against
            // 2.6 s in batch mode, on 2 busy cores.
            let compile = try Subprocess.run(
                "swiftc",
                arguments + [
                    "-wmo", "-debug-prefix-map", "\(work.path)=.", "-module-cache-path", moduleCache.path, "-o",
                    output, "check-driver/main.swift",
                ]
                    + checks.map { "check-driver/" + $0 } + exercise.paths,
                currentDirectory: work.path, timeout: compileTimeout)
            guard compile.succeeded else {
                return .failure(failure(of: compile, exercise, in: work))
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

    public struct BuildFailure: Error, CustomStringConvertible {
        public let description: String
        /// Whether the errors are in the learner's files (else in the driver, or no error the
        /// compiler placed in a file).
        public let inLearnersFiles: Bool
        init(_ description: String, inLearnersFiles: Bool = false) {
            self.description = description
            self.inLearnersFiles = inLearnersFiles
        }
    }

    /// What a failed compile says: the errors in the learner's files, first error first; the
    /// driver's (or the checks') only when the learner's files compile on their own, and then
    /// as what the driver expects of them, at the driver's place in the exercise's `.meta`.
    func failure(of compile: Subprocess.Outcome, _ exercise: Exercise, in work: URL)
        -> BuildFailure
    {
        let output = compile.stdout + "\n" + compile.stderr
        let errors = CompilerError.all(in: output)
        let learners = errors.filter { exercise.paths.contains($0.path) }
        if !learners.isEmpty { return BuildFailure(learnersErrors(learners), inLearnersFiles: true) }
        guard !errors.isEmpty else {
            return BuildFailure(
                Self.compilerErrors(output) ?? "swiftc: \(compile.describeEnd(timeout: compileTimeout))")
        }
        // Errors only outside the learner's files. The compiler may have stopped before it
        // looked for some of theirs (a data race is found after the types check), so their
        // files are compiled on their own, as the editor does, before the driver is blamed.
        let alone = compileAlone(exercise, in: work)
        if !alone.isEmpty { return BuildFailure(learnersErrors(alone), inLearnersFiles: true) }
        let said =
            exercise.files.count == 1
            ? text(
                "your file compiles on its own, but the check's driver does not compile with it: it uses the names your file had as shipped, and the compiler says:"
            )
            : text(
                "your files compile on their own, but the check's driver does not compile with them: it uses the names your files had as shipped, and the compiler says:"
            )
        let place = { (path: String) in Self.placeInExercise(path, exercise) }
        var shown = [said] + errors.prefix(Self.errorsShown).flatMap { $0.lines(notes: true, place: place) }
        if errors.count > Self.errorsShown { shown.append(moreErrors(errors.count - Self.errorsShown)) }
        return BuildFailure(shown.joined(separator: "\n"))
    }

    /// How many of the compiler's errors a failed compile shows.
    static let errorsShown = 3

    /// The learner's errors, as the compiler printed them: the path as they know it, the line,
    /// the source line and the caret.
    func learnersErrors(_ errors: [CompilerError]) -> String {
        var shown = errors.prefix(Self.errorsShown).flatMap { $0.lines() }
        if errors.count > Self.errorsShown { shown.append(moreErrors(errors.count - Self.errorsShown)) }
        return shown.joined(separator: "\n")
    }

    func moreErrors(_ count: Int) -> String {
        count == 1 ? text("(and 1 more error)") : text(format: "(and %d more errors)", count)
    }

    /// The files the driver is compiled from, named where they are in the exercise's folder:
    /// "check-driver/main.swift" is `.meta/driver.swift`, "check-driver/checks.swift" `.meta/checks.swift`.
    static func placeInExercise(_ path: String, _ exercise: Exercise) -> String {
        guard path.hasPrefix("check-driver/") else { return path }
        let name = String(path.dropFirst("check-driver/".count))
        return exercise.metaDirectory + "/" + (name == "main.swift" ? "driver.swift" : name)
    }

    /// The types the learner's files code against (`.meta/given.swift`), which the editor's
    /// flags (`compile_flags.txt`) list with the learner's file.
    public static let givenSource = "given.swift"

    /// The errors in the learner's files compiled on their own with what the editor sees
    /// (`compile_flags.txt`: the language flags, the lessons' modules, `.meta/given.swift`),
    /// through the compiler's data-race checks (`-emit-sil`); none when it could not run.
    func compileAlone(_ exercise: Exercise, in work: URL) -> [CompilerError] {
        var given: [String] = []
        if let text = exercise.checkSources[Self.givenSource] {
            let path = "check-given/" + Self.givenSource
            let file = work.appendingPathComponent(path)
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard (try? Data(text.utf8).write(to: file)) != nil else { return [] }
            given = [path]
        }
        let bin = toolchain.binDirectory.path
        let arguments =
            Self.languageFlags + [
                "-suppress-warnings", "-diagnostic-style=llvm", "-module-name", exercise.moduleName,
                "-parse-as-library", "-wmo", "-emit-sil", "-o", "/dev/null", "-I", bin + "/Modules",
                "-module-cache-path", moduleCache.path,
            ] + toolchain.moduleMapDirectories.flatMap { ["-I", $0] } + exercise.paths + given
        guard
            let alone = try? Subprocess.run(
                "swiftc", arguments, currentDirectory: work.path, timeout: compileTimeout)
        else { return [] }
        return CompilerError.all(in: alone.stdout + "\n" + alone.stderr).filter { exercise.paths.contains($0.path) }
    }

    /// What a driver was compiled against, by content: the module files of every module in the
    /// support library (ExerciseChecks, WorkshopCore, the lessons' kits) and the system
    /// libraries' module maps. A relink that changes nothing a driver sees (same bytes, new
    /// time) keeps every build; a change to a module's declarations makes new ones. A changed
    /// function body alone needs none: the driver loads the library anew each run.
    var libraryStamp: String {
        let modules = toolchain.binDirectory.appendingPathComponent("Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: modules.path)) ?? []
        var files = names.filter { name in
            name == "ExerciseChecks.swiftmodule" || name == "WorkshopCore.swiftmodule"
                || name == "WorkshopServer.swiftmodule"
                || (name.hasPrefix("Lesson") && name.hasSuffix("Kit.swiftmodule"))
        }.sorted().map { modules.appendingPathComponent($0).path }
        if files.isEmpty { files = [toolchain.supportLibrary.path] }  // another layout: the library itself
        files += toolchain.moduleMapDirectories.map { $0 + "/module.modulemap" }
        return files.map { ContentHash.of(file: $0) }.joined(separator: " ")
    }

    /// The compiler's first error lines, each with its source line and caret, when none of them
    /// names a place in a file (`CompilerError`); nil when it printed none.
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
        return shown.joined(separator: "\n")
    }

    // MARK: - A driver that ended without results

    /// The name of the failed check of a program that did not finish in time.
    public static let finishCheck = "your code finishes"
    /// The name of the failed check of a program that crashed.
    public static let crashCheck = "your code runs without a crash"

    /// The driver crashed, trapped, ran out of memory or hung before it printed its results.
    func stoppedResult(
        _ outcome: Subprocess.Outcome, exercise: Exercise, sources: [String: Data], hints: [String]
    ) -> CheckResult {
        let lines = outcome.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let site = Self.crashSite(lines, in: exercise)
        if outcome.timedOut {
            let seconds = Self.seconds(runTimeout)
            // The backtrace names the function and file; the line when the loop has one
            // (`while true {}` has none), else the file's first TODO is where to look.
            let lined = site.map { $0.range(of: #"\.swift:\d+"#, options: .regularExpression) != nil } ?? false
            var place = site.map { text(format: "It was in %@.", $0) } ?? ""
            if !lined {
                let todo = firstTodo(exercise, sources)
                place += site == nil ? text(format: "Look at %@.", todo) : text(format: " Look at %@.", todo)
            }
            return CheckResult(
                name: Self.finishCheck, ja: Self.japanese(Self.finishCheck), passed: false,
                expected: text(
                    format: "the checks end within %1$@ s (more time: --timeout or %2$@)", seconds,
                    Self.timeoutVariable),
                got: text(
                    format: "your code did not finish in %@ s: an endless loop, or a wait nothing ends? ", seconds)
                    + place,
                hint: 0)
        }
        if let failure = lines.first(where: Self.isOutOfMemory), let limit = memoryLimitBytes,
            !toolchain.threadSanitizer
        {
            let size = Self.gigabytes(limit)
            let message = failure.replacingOccurrences(of: "Fatal error: ", with: "")
            return CheckResult(
                name: Self.crashCheck, ja: Self.japanese(Self.crashCheck), passed: false,
                expected: text(
                    format: "the checks run within %1$@ of memory (more: %2$@)", size, Self.memoryVariable),
                got: text(
                    format:
                        "your code asked for more memory than a check may take (%1$@): %2$@. An allocation far too large, or a collection that grows without end?",
                    size, message)
                    + (site.map { text(format: " It was at %@.", $0) } ?? ""),
                hint: 0)
        }
        return crashResult(outcome, exercise: exercise, hints: hints)
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

    /// "20", "2.5": seconds for "%@ s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
    }

    static func gigabytes(_ bytes: Int) -> String {
        bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : "\(bytes >> 20) MB"
    }

    /// The Swift runtime's words when an allocation fails ("Fatal error: failed to allocate
    /// 10000000032 bytes of memory with alignment 8"), and C's and C++'s.
    static func isOutOfMemory(_ line: String) -> Bool {
        line.contains("failed to allocate") || line.contains("Could not allocate memory")
            || line.contains("std::bad_alloc") || line.contains("out of memory")
    }

    /// "Exercises/NN-name/File.swift (its first TODO is on line 12)".
    func firstTodo(_ exercise: Exercise, _ sources: [String: Data]) -> String {
        let file = exercise.files[0]
        let source = String(decoding: sources[file] ?? Data(), as: UTF8.self)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let path = exercise.directory + "/" + file
        guard let index = lines.firstIndex(where: { $0.contains("TODO") }) else { return path }
        return text(format: "%1$@ (its first TODO is on line %2$d)", path, index + 1)
    }

    /// The driver crashed or trapped before it printed its results: how it ended, the runtime's
    /// message, and the one place in the learner's files where it was (the backtrace's first
    /// frame there). A hint only when the evidence is that hint's case (`hint(for:_:_:)`).
    func crashResult(_ outcome: Subprocess.Outcome, exercise: Exercise, hints: [String]) -> CheckResult {
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
        let evidence = CrashEvidence(outcome.stderr)
        let site = Self.crashSite(lines, in: exercise)
        // How it ended and the runtime's own message, word for word (in 「」 in Japanese).
        var got = text(format: "%@", ended.describeEnd(timeout: runTimeout))
        if let fatal = lines.first(where: { $0.contains("Fatal error") || $0.contains("Precondition failed") })
            ?? lines.first(where: { $0.hasPrefix("*** Program crashed") })
        {
            let message = Self.runtimeMessage(
                fatal.trimmingCharacters(in: CharacterSet(charactersIn: "* ")), exercise, placed: site != nil)
            got += ": " + text(format: "%@", message)
        }
        if let site { got += text(format: ", in %@", site) }
        var expected = text("the checks run to the end")
        if evidence.screenOffMain {
            expected = text("the Screen and its table touched only on the main queue (this trap is its check)")
        } else if evidence.queueAssertion {
            expected = text(
                "code that checks its queue (dispatchPrecondition, MainActor.assumeIsolated) runs only on that queue")
        } else if trapped {
            expected = text(
                "no trap (a failed precondition, a fatalError, a nil unwrapped with !, an index out of range)")
        }
        return CheckResult(
            name: Self.crashCheck, ja: Self.japanese(Self.crashCheck), passed: false, expected: expected, got: got,
            hint: Self.hint(for: evidence, outcome.stderr, hints))
    }

    /// The hint a crash points to, 1-based; 0 when no hint is about what the crash shows.
    /// A hint is about it when it quotes what the program printed (a runtime's message in
    /// "..." of 16 characters or more), or, for the Screen touched off the main queue (its
    /// trap in the backtrace), when it says where the Screen may be touched (`DispatchQueue.main`).
    static func hint(for evidence: CrashEvidence, _ stderr: String, _ hints: [String]) -> Int {
        for (index, hint) in hints.enumerated() where quoted(in: hint).contains(where: stderr.contains) {
            return index + 1
        }
        if evidence.screenOffMain,
            let index = hints.firstIndex(where: { $0.contains("Screen") && $0.contains("DispatchQueue.main") })
        {
            return index + 1
        }
        return 0
    }

    /// What `text` quotes in "...", 16 characters or more (a message, not a word).
    static func quoted(in text: String) -> [String] {
        let parts = text.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }.filter { $0.count >= 16 }
    }

    /// The runtime's message without the place it names by `#fileID`, which is not a path the
    /// learner knows ("Exercise03/File.swift:21: Fatal error", Swift's own
    /// "Swift/Array.swift:690: Fatal error: Index out of range"): when the backtrace found the
    /// place in the learner's files (`placed`), that place is the one said; else a place in
    /// their file is said by its path.
    static func runtimeMessage(_ line: String, _ exercise: Exercise, placed: Bool) -> String {
        let pattern = #"^[A-Za-z_][A-Za-z0-9_]*/[^:/]+\.swift:\d+: "#
        guard let prefix = line.range(of: pattern, options: .regularExpression) else { return line }
        if placed { return String(line[prefix.upperBound...]) }
        let fileID = line[prefix].dropLast(2)  // "Exercise03/File.swift:21"
        for file in exercise.files where fileID.hasPrefix(exercise.moduleName + "/" + file + ":") {
            let number = fileID.dropFirst(exercise.moduleName.count + file.count + 2)
            return "\(exercise.directory)/\(file):\(number): " + line[prefix.upperBound...]
        }
        return line
    }

    /// The first frame of a crash's backtrace in the learner's files:
    /// "loadIcons(for:into:) at Exercises/NN-name/File.swift:21:13".
    static func crashSite(_ lines: [String], in exercise: Exercise) -> String? {
        for line in lines {
            // "3 [ra] 0x000055a02fbf7fb1 closure #1 in f(_:) + 32 in exercise03 at Exercises/x/A.swift:2:13"
            guard let at = line.range(of: " at Exercises/", options: .backwards),
                exercise.paths.contains(where: {
                    line[at.upperBound...].hasPrefix($0.dropFirst("Exercises/".count) + ":")
                }),
                let address = line.range(of: " 0x")
            else { continue }
            let head = line[address.upperBound..<at.lowerBound].drop { $0 != " " }.dropFirst()
            let function = head.components(separatedBy: " + ").first ?? String(head)
            return "\(function) at \(line[line.index(after: at.lowerBound)...].dropFirst(3))"
        }
        return nil
    }
}
