import Foundation
import WorkshopCore
import XCTest

@testable import ExerciseChecks

/// A learner's file in any state is a failed check, never a dead check: a compile error, a
/// name the driver needs gone, a trap, a hang, a missing file. And an unchanged file is not
/// compiled again.
final class RunnerTests: XCTestCase {
    let iconLoader = ExerciseFiles.exercise("03")

    func shipped03() throws -> String { try ExerciseFiles.text(iconLoader, .shipped) }

    func testACompileErrorIsAFailedCheckWithTheCompilersFirstErrorsRelativeToTheProject() throws {
        let broken = try shipped03().replacingOccurrences(
            of: "let icon = try? client.icon(for: entry)", with: "let icon = try? client.icon(for: entry")
        XCTAssertNotEqual(broken, try shipped03())
        let report = ExerciseRunner().check(iconLoader, sources: ExerciseFiles.sources(iconLoader, text: broken))
        XCTAssertEqual(report.results.count, 1, "\(report.results)")
        let result = try XCTUnwrap(report.results.first)
        XCTAssertEqual(result.name, ExerciseRunner.compileCheck)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.hint, 0, "the compiler's message is the help")
        let first = try XCTUnwrap(result.got.split(separator: "\n").first)
        let line =
            try XCTUnwrap(
                broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                    $0.contains("client.icon(for: entry\n") || $0.hasSuffix("client.icon(for: entry")
                }) + 1
        XCTAssertTrue(first.hasPrefix("Exercises/03-icons-off-main/IconLoader.swift:\(line):"), "\(result.got)")
        XCTAssertTrue(first.contains(": error: "), "\(result.got)")
        // The source line and a caret under the spot follow the message.
        XCTAssertTrue(result.got.contains("let icon = try? client.icon(for: entry\n"), "\(result.got)")
        XCTAssertTrue(result.got.contains("^"), "\(result.got)")
        XCTAssertFalse(result.got.contains("/tmp/"), "no absolute paths: \(result.got)")
    }

    func testANameTheDriverUsesThatIsGoneIsExplained() throws {
        let renamed = try shipped03().replacingOccurrences(of: "enum IconLoader", with: "enum IconFetcher")
        let report = ExerciseRunner().check(iconLoader, sources: ExerciseFiles.sources(iconLoader, text: renamed))
        let result = try XCTUnwrap(report.results.first)
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.got.hasPrefix("check-driver/main.swift:"), "\(result.got)")
        XCTAssertTrue(result.got.contains("cannot find 'IconLoader' in scope"), "\(result.got)")
        XCTAssertTrue(result.got.contains("it uses the names your file had as shipped"), "\(result.got)")
        XCTAssertTrue(result.expected.contains("IconLoader.loadIcons(for:into:using:imageQueue:)"), result.expected)
    }

    /// The Screen's table touched from the image queue: the driver traps, the check says why
    /// and which hint helps.
    func testATrapOffTheMainQueueIsAFailedCheckPointingAtTheMainQueueHint() throws {
        let offMain = try ExerciseFiles.text(iconLoader, .solution).replacingOccurrences(
            of: "DispatchQueue.main.async {", with: "do {")
        let hints = HintsFile.hints(in: try ExerciseFiles.document(iconLoader, "hints.md"))
        let mainQueueHint = try XCTUnwrap(hints.firstIndex { $0.contains("DispatchQueue.main") }) + 1
        let report = ExerciseRunner().check(
            iconLoader, sources: ExerciseFiles.sources(iconLoader, text: offMain), hints: hints)
        // The checks it did not get to are listed as not run, not dropped from the count.
        XCTAssertEqual(
            report.results.map(\.name), [ExerciseRunner.compileCheck, ExerciseRunner.crashCheck] + iconLoader.checks)
        XCTAssertEqual(report.notRun.map(\.name), iconLoader.checks)
        XCTAssertEqual(report.failed.map(\.name), [ExerciseRunner.crashCheck])
        let crash = report.results[1]
        XCTAssertFalse(crash.passed)
        XCTAssertTrue(crash.expected.contains("main queue"), crash.expected)
        XCTAssertEqual(crash.hint, mainQueueHint)
        XCTAssertTrue(crash.got.contains("stopped by signal"), crash.got)
        if !Toolchain.builtWithThreadSanitizer {  // under the sanitizer the crash reporter is off
            XCTAssertTrue(crash.got.contains("at Exercises/03-icons-off-main/IconLoader.swift:"), crash.got)
        }
    }

    /// An endless loop: stopped after the time limit, said in words, with where it was (the
    /// backtrace taken before the kill names the function and the file), the rest not run.
    func testAHangIsStoppedAtTheTimeLimitAndSaysWhereItWas() throws {
        let lineBreaker = ExerciseFiles.exercise("07")
        let hanging = try ExerciseFiles.text(lineBreaker, .shipped).replacingOccurrences(
            of: "var lines: [String] = []", with: "var lines: [String] = []\n        while lines.isEmpty {}")
        var runner = ExerciseRunner()
        runner.runTimeout = 2
        let report = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: hanging))
        let hang = try XCTUnwrap(report.results.dropFirst().first)
        XCTAssertEqual(hang.name, ExerciseRunner.finishCheck)
        XCTAssertFalse(hang.passed)
        XCTAssertTrue(
            hang.got.hasPrefix("your code did not finish in 2 s: an endless loop, or a wait nothing ends?"), hang.got)
        XCTAssertTrue(hang.got.contains("Exercises/07-line-breaks/LineBreaker.swift"), hang.got)
        if !Toolchain.builtWithThreadSanitizer {  // under the sanitizer the crash reporter is off
            XCTAssertTrue(hang.got.contains("LineBreaker.wrap"), "the backtrace names the function: \(hang.got)")
        }
        XCTAssertEqual(report.notRun.map(\.name), lineBreaker.checks)

        runner.japanese = true
        let japanese = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: hanging))
        let said = try XCTUnwrap(japanese.results.dropFirst().first).got
        XCTAssertTrue(said.hasPrefix("あなたのコードが 2 秒以内に終わりませんでした。"), said)
    }

    /// A 10 GB allocation is a failed check that says so, not a machine out of memory.
    func testAHugeAllocationIsAFailedCheckNotADeadLaptop() throws {
        try XCTSkipIf(
            Toolchain.builtWithThreadSanitizer, "a thread-sanitized check has no memory limit (its shadow memory)")
        let resolver = ExerciseFiles.exercise("05")
        let greedy = try ExerciseFiles.text(resolver, .shipped).replacingOccurrences(
            of: "        try records.map { record in",
            with: "        let huge = [UInt8](repeating: 1, count: 10_000_000_000)\n"
                + "        if huge.count == 3 { return [] }\n        return try records.map { record in")
        XCTAssertTrue(greedy.contains("10_000_000_000"), "exercise 05's file changed shape")
        let report = ExerciseRunner().check(resolver, sources: ExerciseFiles.sources(resolver, text: greedy))
        let stop = try XCTUnwrap(report.results.dropFirst().first)
        XCTAssertEqual(stop.name, ExerciseRunner.crashCheck)
        XCTAssertTrue(stop.got.hasPrefix("your code asked for more memory than a check may take (2 GB)"), stop.got)
        XCTAssertTrue(stop.got.contains("10000000032 bytes"), stop.got)
        XCTAssertEqual(report.notRun.map(\.name), resolver.checks)
    }

    /// The case, with the default limit: `while true {}` in exercise 05's file ends its
    /// check within the 25 s (20 s limit, then the backtrace and the kill).
    func testAnEndlessLoopInExercise05EndsItsCheckWithin25Seconds() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1", "slow tier: set SAKUSAKU_SLOW_TESTS=1")
        let resolver = ExerciseFiles.exercise("05")
        let endless = try ExerciseFiles.text(resolver, .shipped).replacingOccurrences(
            of: "        try records.map { record in",
            with: "        while true {}\n        try records.map { record in")
        let started = monotonicSeconds()
        let report = ExerciseRunner().check(resolver, sources: ExerciseFiles.sources(resolver, text: endless))
        let took = monotonicSeconds() - started
        XCTAssertLessThanOrEqual(took, 25, "the issue's bound")
        let hang = try XCTUnwrap(report.results.dropFirst().first)
        XCTAssertTrue(hang.got.hasPrefix("your code did not finish in 20 s"), hang.got)
        XCTAssertTrue(hang.got.contains("Exercises/05-preload-cache/OrderResolver.swift"), hang.got)
    }

    /// Builds are kept by what the driver was compiled against, not by the library's time: a
    /// relink that writes the same bytes keeps them, a changed module makes new ones.
    func testTheBuildCacheIsKeyedOnContentNotOnTime() throws {
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
        XCTAssertEqual(runner.libraryStamp, first, "a new time, the same bytes: the same builds")
        try Data("module v2".utf8).write(to: module)
        XCTAssertNotEqual(runner.libraryStamp, first, "new bytes: new builds")
    }

    func testAMissingFileIsAFailedCheckThatSaysHowToGetItBack() {
        let report = ExerciseRunner().check(iconLoader, sources: [:])
        XCTAssertEqual(report.results.map(\.name), ["the exercise file is there"])
        XCTAssertTrue(report.results[0].got.contains("swift run workshop reset 03"), report.results[0].got)
    }

    func testTheSameFilesAreCompiledOnceAndAChangedFileAgain() throws {
        let lineBreaker = ExerciseFiles.exercise("07")
        // A comment no other test uses, so the first check below compiles for sure.
        let text = try ExerciseFiles.text(lineBreaker, .shipped) + "// \(UUID().uuidString)\n"
        let runner = ExerciseRunner()
        let first = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: text))
        let second = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: text))
        let changed = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: text + "\n"))
        XCTAssertTrue(first.compiled)
        XCTAssertFalse(second.compiled)
        XCTAssertTrue(changed.compiled)
        XCTAssertEqual(first.results, second.results)
    }
}
