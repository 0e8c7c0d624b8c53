import Foundation
import WorkshopCore
import XCTest

@testable import ExerciseChecks
@testable import WorkshopTools

/// A learner's file that eats the machine is a failed check, shown on exercise 05's file: a
/// 10 GB allocation, an endless loop (the case).
final class Exercise05RunnerTests: XCTestCase {
    /// A 10 GB allocation is a failed check that says so, not a machine out of memory. Slow tier:
    /// a compile of its own and gigabytes asked for (5 s).
    func testAHugeAllocationIsAFailedCheckNotADeadLaptop() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
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
}
