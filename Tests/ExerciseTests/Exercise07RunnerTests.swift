import Foundation
import WorkshopCore
import XCTest

@testable import ExerciseChecks
@testable import WorkshopTools

/// A hang is a failed check that says where it was, and an unchanged file is not compiled
/// again, shown on exercise 07's file.
final class Exercise07RunnerTests: XCTestCase {
    /// An endless loop: stopped after the time limit, said in words, with where it was (the
    /// backtrace taken before the kill names the function and the file), the rest not run.
    func testAHangIsStoppedAtTheTimeLimitAndSaysWhereItWas() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
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
        // The backtrace is taken as the program is stopped. When it has the learner's frame it
        // names the function; when it has none (the sanitizer's build has no crash reporter, and
        // on a busy machine the runtime's backtracer can fail to suspend the looping thread in
        // time: seen in CI), the message points at the file's first TODO instead.
        if !Toolchain.builtWithThreadSanitizer, hang.got.contains("It was in") {
            XCTAssertTrue(hang.got.contains("LineBreaker.wrap"), "the backtrace names the function: \(hang.got)")
        } else {
            XCTAssertTrue(hang.got.contains("its first TODO is on line"), hang.got)
        }
        XCTAssertEqual(report.notRun.map(\.name), lineBreaker.checks)

        runner.japanese = true
        let japanese = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: hanging))
        let said = try XCTUnwrap(japanese.results.dropFirst().first).got
        XCTAssertTrue(said.hasPrefix("あなたのコードが 2 秒以内に終わりませんでした。"), said)
    }

    func testTheSameFilesAreCompiledOnceAndAChangedFileAgain() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
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
