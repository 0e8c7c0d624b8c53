import Foundation
import Testing
import WorkshopCore

@testable import ExerciseChecks
@testable import WorkshopTools

/// The runner's own promises, whatever the exercise: builds are kept by content.
@Suite struct RunnerTests {
    /// Builds are kept by what the driver was compiled against, not by the library's time: a
    /// relink that writes the same bytes keeps them, a changed module makes new ones.
    @Test func theBuildCacheIsKeyedOnContentNotOnTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let modules = folder.appendingPathComponent("Modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let module = modules.appendingPathComponent("ExerciseChecks.swiftmodule")
        try Data("module v1".utf8).write(to: module)
        let runner = ExerciseRunner(
            toolchain: Toolchain(binDirectory: folder, packageRoot: folder, threadSanitizer: false))
        let first = runner.libraryStamp
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: module.path)
        #expect(runner.libraryStamp == first, "a new time, the same bytes: the same builds")
        try Data("module v2".utf8).write(to: module)
        #expect(runner.libraryStamp != first, "new bytes: new builds")
    }
}

/// A learner's file in any state is a failed check, never a dead check: what the runner says
/// of a file that does not compile, is missing, hangs or crashes, shown on the catalog's own
/// exercises (their cases in `.meta/cases.json` say which break which way).
///
/// What RunnerStatesTests and RunnerStatesSlowTests (the slow tier) share.
enum RunnerStates {
    /// The first exercise of the catalog, and its one file as shipped.
    static func first() throws -> (Exercise, String) {
        let exercise = try #require(ExerciseCatalog.exercises.first)
        return (exercise, try ExerciseFiles.text(exercise, .shipped))
    }

    /// `runner`'s check of `exercise` with `text` as its file: a compile and a run, waited for
    /// off Swift's pool, in one of the slots the suites share.
    static func check(_ exercise: Exercise, _ text: String, with runner: ExerciseRunner = ExerciseRunner())
        async throws -> ExerciseRunner.Report
    {
        let sources = ExerciseFiles.sources(exercise, text: text)
        return try await Subprocess.Slots.shared.run { runner.check(exercise, sources: sources) }
    }
}

@Suite struct RunnerStatesTests {
    /// A brace too many at the end (what CI plants): the compiler's first error, at the
    /// learner's path and line, with the source line and a caret, and no absolute path.
    @Test func aCompileErrorIsAFailedCheckWithTheCompilersFirstErrorRelativeToTheProject() async throws {
        let (exercise, shipped) = try RunnerStates.first()
        let broken = shipped + "\n}\n"
        let report = try await RunnerStates.check(exercise, broken)
        #expect(report.results.count == 1, "\(report.results)")
        let result = try #require(report.results.first)
        #expect(result.name == ExerciseRunner.compileCheck)
        #expect(!result.passed)
        #expect(result.hint == 0, "the compiler's message is the help")
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let first = try #require(result.got.split(separator: "\n").first)
        #expect(first.hasPrefix("\(exercise.paths[0]):\(line):"), "\(result.got)")
        #expect(first.contains(": error: "), "\(result.got)")
        #expect(result.got.contains("^"), "a caret under the spot: \(result.got)")
        #expect(!result.got.contains("/tmp/"), "no absolute paths: \(result.got)")
    }

    @Test func aMissingFileIsAFailedCheckThatSaysHowToGetItBack() throws {
        let (exercise, _) = try RunnerStates.first()
        let report = ExerciseRunner().check(exercise, sources: [:])
        #expect(report.results.map(\.name) == ["the exercise file is there"])
        #expect(report.results[0].got.contains("swift run workshop reset \(exercise.id)"), "\(report.results[0].got)")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct RunnerStatesSlowTests {
    /// A case that hangs on purpose, found in the catalog: stopped at its time limit, said in
    /// words in both languages, where it was (the function, or the file's first TODO), the rest not run.
    @Test func aHangIsStoppedAtTheTimeLimitAndSaysWhereItWas() async throws {
        let found = ExerciseCatalog.exercises.lazy.compactMap { exercise in
            exercise.cases.first { $0.fails == [ExerciseRunner.finishCheck] && $0.timeout != nil }.map {
                (exercise, $0)
            }
        }.first
        let (exercise, hang) = try #require(found, "no exercise has a case that hangs (fails: your code finishes)")
        let text = try MutationCaseSlowTests.source(exercise, hang)
        var runner = ExerciseRunner()
        runner.runTimeout = 2
        let report = try await RunnerStates.check(exercise, text, with: runner)
        let stopped = try #require(report.results.dropFirst().first)
        #expect(stopped.name == ExerciseRunner.finishCheck)
        #expect(
            stopped.got.hasPrefix("your code did not finish in 2 s: an endless loop, or a wait nothing ends?"),
            "\(stopped.got)")
        #expect(stopped.got.contains(exercise.paths[0]), "\(stopped.got)")
        #expect(report.notRun.map(\.name) == exercise.checks)
        runner.japanese = true
        let japanese = try await RunnerStates.check(exercise, text, with: runner)
        let said = try #require(japanese.results.dropFirst().first).got
        #expect(said.hasPrefix("あなたのコードが 2 秒以内に終わりませんでした。"), "\(said)")
    }

    @Test func theSameFilesAreCompiledOnceAndAChangedFileAgain() async throws {
        let (exercise, shipped) = try RunnerStates.first()
        // A comment no other test uses, so the first check below compiles for sure.
        let text = shipped + "// \(UUID().uuidString)\n"
        let first = try await RunnerStates.check(exercise, text)
        let second = try await RunnerStates.check(exercise, text)
        let changed = try await RunnerStates.check(exercise, text + "\n")
        #expect(first.compiled)
        #expect(!second.compiled)
        #expect(changed.compiled)
        #expect(first.results.map(\.name) == second.results.map(\.name))
    }
}

/// A ThreadSanitizer report as a check shows it (the data-race exercises): counted, and its
/// first report in one line, with the names demangled into Swift.
@Suite struct TSanReportTests {
    @Test func theSanitizerReportIsReadInOneLine() {
        let stderr = """
            ==================
            WARNING: ThreadSanitizer: Swift access race (pid=20072)
              Modifying access of Swift variable at 0x720800001030 by thread T3:
                #0 $s10ExerciseR114RequestCounterC6recordyySSF Exercises/NN-name/RequestCounter.swift (exerciseR1+0x100ebb) (BuildId: fa4c)
                #1 $s10ExerciseR18workloadSSyYaFyScGyytGzYaXEfU_yyYacfU_TY0_ main.o (exerciseR1+0xff795)

              Previous read of size 8 at 0x720800001030 by main thread:
                #0 $s10ExerciseR114RequestCounterC5totalSivg <null> (exerciseR1+0x100ebb) (BuildId: fa4c)

            SUMMARY: ThreadSanitizer: Swift access race in $s10ExerciseR114RequestCounterC6recordyySSF
            ==================
            WARNING: ThreadSanitizer: data race (pid=20072)
            """
        let report = TSanReport(stderr)
        #expect(report.races == 2)
        #expect(
            report.summary == "Swift access race: Modifying access by thread T3 in RequestCounter.record(_:); "
                + "Previous read by main thread in RequestCounter.total.getter (and 1 more report)")
        #expect(TSanReport("all fine\n").races == 0)
    }
}
