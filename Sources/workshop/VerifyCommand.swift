import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop verify`: for instructors and CI. For every exercise, the way `check` does it
/// (compiled with the exercise's driver, run in a child process):
/// - the copy as shipped (`.meta/shipped`, see ShippedFiles; no git needed) compiles and fails
///   every check its `.meta/exercise.json` names in `failsAsShipped` (else the checks test
///   nothing, or not what the README says they do);
/// - the reference solution (Exercises/<folder>/.meta/solution) passes every check, and the checks
///   that ran are the catalog's, in its order;
/// - the learner's files in Exercises/ are the copies as shipped (a room ready to start).
///
/// The exercises are compiled and checked several at a time (`--jobs`). `--repeat` and
/// `--busy-cores` make it the proof that the checks hold on a busy laptop: every reference
/// passes and every copy as shipped fails in each of N rounds, with K cores kept busy.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "For instructors and CI: every exercise ships unsolved, every reference passes, Exercises/ is as shipped. Exit 1 otherwise."
        )
    )

    @Argument(
        help: ArgumentHelp(
            localized("Only these exercises, e.g. 03 R1 (default: all of them)."), valueName: "exercise"),
        transform: exerciseArgument)
    var only: [Exercise] = []

    @Flag(help: ArgumentHelp(localized("Do not build the checks' library first.")))
    var noBuild = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(localized("Check everything this many times (1-100); each round must pass."), valueName: "n")
    )
    var `repeat` = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                "Keep this many cores busy meanwhile (0-64), as other programs would: the checks must hold under load."),
            valueName: "n"))
    var busyCores = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized("Exercises checked at once (1-32; default: twice the number of cores, 2 to 8)."), valueName: "n"))
    var jobs: Int?

    @OptionGroup var limits: CheckLimits
    @OptionGroup var language: LanguageOption

    func validate() throws {
        guard (1...100).contains(`repeat`) else {
            throw ValidationError(localized(format: "--repeat must be between 1 and 100 (got %d)", `repeat`))
        }
        guard (0...64).contains(busyCores) else {
            throw ValidationError(localized(format: "--busy-cores must be between 0 and 64 (got %d)", busyCores))
        }
        if let jobs, !(1...32).contains(jobs) {
            throw ValidationError(localized(format: "--jobs must be between 1 and 32 (got %d)", jobs))
        }
    }

    /// One check to make: an exercise's copy as shipped or its reference.
    struct Job {
        enum Kind { case shipped, reference }
        var exercise: Exercise
        var kind: Kind
        var sources: [String: Data]
    }

    /// What one exercise came to over every round.
    struct Tally {
        var shippedFailed = 0
        var shippedProblem: String?
        var shippedSummary = ""
        var referencePassed = 0
        var referenceProblem: String?
        var referenceSummary = ""
        var slowestReference = 0.0
    }

    func run() throws {
        let workspace = Workspace.locate()
        let toolchain = Toolchain.current
        if !noBuild, let problem = SupportLibrary.ensureBuilt(toolchain) {
            Check.print([problem], of: ExerciseCatalog.exercises[0])
            throw ExitCode(1)
        }
        var runner = limits.runner(toolchain)
        runner.japanese = Language.current == .ja
        let exercises = only.isEmpty ? ExerciseCatalog.exercises : only
        let jobCount = jobs ?? defaultCheckWidth

        // The Exercises/ files and the two copies, before any check.
        var learner: [String: String] = [:]
        var jobs: [Job] = []
        var tallies: [String: Tally] = [:]
        var missingCopies: [String] = []
        for exercise in exercises {
            let shipped = workspace.shippedSources(exercise)
            switch Workspace.fingerprint(workspace.learnerSources(exercise), of: exercise) {
            case nil: learner[exercise.id] = "MISSING"
            case Workspace.fingerprint(shipped, of: exercise): learner[exercise.id] = "as shipped"
            default: learner[exercise.id] = "CHANGED"
            }
            var tally = Tally()
            if Workspace.fingerprint(shipped, of: exercise) == nil {
                tally.shippedProblem = localized("MISSING")
                missingCopies += exercise.files.map { ShippedFiles.path(exercise, $0) }.filter {
                    !FileManager.default.fileExists(atPath: workspace.path($0))
                }
            } else {
                jobs.append(Job(exercise: exercise, kind: .shipped, sources: shipped))
            }
            let solution = workspace.solutionSources(exercise)
            if Workspace.fingerprint(solution, of: exercise) == nil {
                tally.referenceProblem = localized("MISSING")
            } else {
                jobs.append(Job(exercise: exercise, kind: .reference, sources: solution))
            }
            tallies[exercise.id] = tally
        }

        let load = busyCores > 0 ? BusyLoad() : nil
        let signals = load?.stopOnSignals() ?? []
        defer {
            load?.stop()
            for source in signals { source.cancel() }
        }
        try load?.start(count: busyCores)
        if let load {
            Style.line(Style.dim(Text.busyStarted(load.count)))
        }

        let started = monotonicSeconds()
        var roundSeconds: [Double] = []
        for round in 1...`repeat` {
            if `repeat` > 1 { Style.line(Style.dim(Text.round(round, of: `repeat`, jobs: jobCount))) }
            let roundStarted = monotonicSeconds()
            let reports = Self.check(jobs, with: runner, jobs: jobCount)
            roundSeconds.append(monotonicSeconds() - roundStarted)
            for (job, report) in zip(jobs, reports) {
                tallies[job.exercise.id, default: Tally()].record(job, report)
            }
        }
        let total = monotonicSeconds() - started

        let header = ["exercise", "Exercises/ file", "copy as shipped", "reference", "verdict"].map { localized($0) }
        var rows: [[String]] = []
        var bad: [String] = []
        for exercise in exercises {
            let tally = tallies[exercise.id] ?? Tally()
            var shipped = tally.shippedProblem ?? tally.shippedSummary
            var reference = tally.referenceProblem ?? tally.referenceSummary
            if `repeat` > 1 {
                // "fails in 10 of 10 runs", or the count and the first thing that went wrong.
                shipped =
                    localized(format: "fails in %1$d of %2$d runs", tally.shippedFailed, `repeat`)
                    + (tally.shippedProblem.map { localized(format: "; once: %@", $0) } ?? "")
                reference =
                    localized(format: "passes in %1$d of %2$d runs", tally.referencePassed, `repeat`)
                    + (tally.referenceProblem.map { localized(format: "; once: %@", $0) } ?? "")
            }
            let ok =
                learner[exercise.id] == "as shipped" && tally.shippedProblem == nil
                && tally.shippedFailed == `repeat` && tally.referenceProblem == nil
                && tally.referencePassed == `repeat`
            if !ok { bad.append(exercise.id) }
            rows.append([
                exercise.id, learner[exercise.id].map { localized($0) } ?? "", shipped, reference, ok ? "ok" : "FAIL",
            ])
        }
        let widths = header.indices.map { column in ([header] + rows).map { terminalWidth($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let text = zip(cells, widths).map { Style.pad($0, $1) }.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        Style.line()
        Style.line(line(header))
        Style.line(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
        for row in rows { Style.line(line(row)) }
        Style.line()
        let slowest = exercises.compactMap { exercise in tallies[exercise.id].map { (exercise.id, $0.slowestReference) }
        }
        .max { $0.1 < $1.1 }
        let figures = Text.verifyFigures(
            seconds: total, rounds: roundSeconds, jobs: jobCount, busy: load?.count ?? 0,
            slowestReference: slowest)
        if bad.isEmpty {
            Style.line(
                localized(format: "%@ (%@).", Text.verifyPassed(exercises.map(\.id), repeats: `repeat`), figures))
        } else {
            Style.line(Text.verifyFailed(bad, of: exercises.count, figures: figures))
            if !missingCopies.isEmpty {
                Style.line(
                    localized(
                        format:
                            "Missing: %@. They come with the workshop; an exercise's author writes them with `swift run workshop sync`.",
                        missingCopies.joined(separator: ", ")))
            }
            if missingCopies.isEmpty, learner.values.contains(where: { $0 != "as shipped" }) {
                Style.line(
                    localized(
                        "A changed Exercises/ file is a learner's work: `swift run workshop reset NN` keeps a backup of it. An exercise's author who changed the file as shipped runs `swift run workshop sync`, which copies it to .meta/shipped."
                    ))
            }
            throw ExitCode(1)
        }
    }

    /// Runs every job, `jobs` at a time, and returns the reports in the jobs' order. Each
    /// finished job prints one line.
    static func check(_ list: [Job], with runner: ExerciseRunner, jobs: Int) -> [ExerciseRunner.Report] {
        let printing = NSLock()  // one line at a time from several threads
        return inParallel(list.count, width: jobs) { index in
            let job = list[index]
            let report = runner.check(job.exercise, sources: job.sources)
            let compiled =
                report.compiled ? localized(format: "compiled in %.1f s", report.compileSeconds) + localized(", ") : ""
            let line = Style.dim(
                "  \(job.exercise.id) \(Self.label(job.kind)): " + Self.summary(job, report)
                    + " (\(compiled)\(localized(format: "checks ran in %.1f s", report.runSeconds)))")
            printing.withLock { Style.line(line) }
            return report
        }.map { $0 ?? ExerciseRunner.Report(results: []) }
    }

    /// "as shipped" or "reference ", padded to the same width.
    static func label(_ kind: Job.Kind) -> String {
        let (shipped, reference) = (localized("as shipped"), localized("reference"))
        let width = max(terminalWidth(shipped), terminalWidth(reference))
        return Style.pad(kind == .shipped ? shipped : reference, width)
    }

    /// "fails 4 of 5 checks", "passes 5 checks", "DOES NOT COMPILE: ...", "FAILS: <check>".
    static func summary(_ job: Job, _ report: ExerciseRunner.Report) -> String {
        let compiles = report.results.first?.name == ExerciseRunner.compileCheck && report.results[0].passed
        switch job.kind {
        case .shipped:
            if !compiles {
                let first = report.results.first?.got.split(separator: "\n").first ?? ""
                return localized(format: "DOES NOT COMPILE: %@", String(first))
            }
            if report.passed { return localized("PASSES (ships solved)") }
            if let passing = unfailed(job.exercise, report) {
                return localized(format: "PASSES \"%@\", which it must fail as shipped", passing)
            }
            return report.results.count == 1
                ? localized(format: "fails %d of 1 check", report.failed.count)
                : localized(format: "fails %1$d of %2$d checks", report.failed.count, report.results.count)
        case .reference:
            if report.passed, report.results.map(\.name) != [ExerciseRunner.compileCheck] + job.exercise.checks {
                return localized("FAILS: the checks that ran are not the ones .meta/exercise.json lists")
            }
            if report.passed {
                return report.results.count == 1
                    ? localized("passes 1 check") : localized(format: "passes %d checks", report.results.count)
            }
            let first = report.failed.first.map { "\($0.displayName): \($0.got)" } ?? localized("no checks ran")
            return localized(format: "FAILS: %@", first)
        }
    }
}

extension Verify {
    /// The first check `.meta/exercise.json` says the copy as shipped fails, that it did not fail.
    static func unfailed(_ exercise: Exercise, _ report: ExerciseRunner.Report) -> String? {
        let failed = Set(report.failed.map(\.name))
        return exercise.failsAsShipped.first { !failed.contains($0) }
    }

    /// Whether a reference run is what the catalog says: every check passed, and they are its checks.
    static func referenceHolds(_ exercise: Exercise, _ report: ExerciseRunner.Report) -> Bool {
        report.passed && report.results.map(\.name) == [ExerciseRunner.compileCheck] + exercise.checks
    }
}

extension Verify.Tally {
    mutating func record(_ job: Verify.Job, _ report: ExerciseRunner.Report) {
        let summary = Verify.summary(job, report)
        switch job.kind {
        case .shipped:
            let compiles = report.results.first?.name == ExerciseRunner.compileCheck && report.results[0].passed
            if compiles && !report.passed && Verify.unfailed(job.exercise, report) == nil {
                shippedFailed += 1
                if shippedSummary.isEmpty { shippedSummary = summary }
            } else if shippedProblem == nil {
                shippedProblem = summary
            }
        case .reference:
            slowestReference = max(slowestReference, report.runSeconds)
            if Verify.referenceHolds(job.exercise, report) {
                referencePassed += 1
                if referenceSummary.isEmpty { referenceSummary = summary }
            } else if referenceProblem == nil {
                referenceProblem = String(summary.prefix(120))
            }
        }
    }
}
