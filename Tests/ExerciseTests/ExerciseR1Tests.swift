import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise R1 beyond the two-way proof: the sanitizer's report reaches the learner
/// demangled, a half fix is caught, and an actor is as good a fix as a lock. The racy code
/// never runs in this process, so `swift test --sanitize=thread` stays green.
final class ExerciseR1Tests: XCTestCase {
    let counter = ExerciseFiles.exercise("R1")
    let raceCheck = "no data race under the thread sanitizer"

    /// Slow tier: two builds of the workload, one under the thread sanitizer (9 s).
    func testTheShippedRaceIsCaughtAndNamedInSwift() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        let report = ExerciseRunner().check(counter, sources: try ExerciseFiles.sources(counter, .shipped))
        let race = try XCTUnwrap(report.results.first { $0.name == raceCheck }, "\(report.results)")
        XCTAssertFalse(race.passed)
        XCTAssertTrue(race.got.contains("RequestCounter.record(_:)"), "demangled: \(race.got)")
    }

    /// A lock around the writes, none around the reads: the Screen's reads still race.
    func testALockAroundTheWritesAloneIsCaught() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        let shipped = try ExerciseFiles.text(counter, .shipped)
        let halfFixed =
            shipped
            .replacingOccurrences(
                of: "    private var counts: [String: Int] = [:]\n",
                with: "    private var counts: [String: Int] = [:]\n    private let lock = NSLock()\n"
            )
            .replacingOccurrences(
                of: "        counts[path, default: 0] += 1",
                with: "        lock.withLock { counts[path, default: 0] += 1 }")
        XCTAssertTrue(halfFixed.contains("lock.withLock") && halfFixed.contains("private let lock"), "shape changed")
        let report = ExerciseRunner().check(counter, sources: ExerciseFiles.sources(counter, text: halfFixed))
        let race = try XCTUnwrap(report.results.first { $0.name == raceCheck }, "\(report.results)")
        XCTAssertFalse(race.passed, "\(race)")
        XCTAssertTrue(race.got.contains("RequestCounter.total.getter"), "\(race)")
    }

    /// Solved another way than the reference: an actor.
    func testAnActorPassesToo() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
        let actor = try ExerciseFiles.text(counter, .shipped).replacingOccurrences(
            of: "public final class RequestCounter: @unchecked Sendable {", with: "public actor RequestCounter {")
        XCTAssertTrue(actor.contains("public actor RequestCounter {"), "shape changed")
        let report = ExerciseRunner().check(counter, sources: ExerciseFiles.sources(counter, text: actor))
        XCTAssertTrue(report.passed, report.results.map(\.description).joined(separator: "\n"))
    }

    func testTheSanitizerReportIsReadInOneLine() {
        let stderr = """
            ==================
            WARNING: ThreadSanitizer: Swift access race (pid=20072)
              Modifying access of Swift variable at 0x720800001030 by thread T3:
                #0 $s10ExerciseR114RequestCounterC6recordyySSF Exercises/R1-data-race/RequestCounter.swift (exerciseR1+0x100ebb) (BuildId: fa4c)
                #1 $s10ExerciseR18workloadSSyYaFyScGyytGzYaXEfU_yyYacfU_TY0_ main.o (exerciseR1+0xff795)

              Previous read of size 8 at 0x720800001030 by main thread:
                #0 $s10ExerciseR114RequestCounterC5totalSivg <null> (exerciseR1+0x100ebb) (BuildId: fa4c)

            SUMMARY: ThreadSanitizer: Swift access race in $s10ExerciseR114RequestCounterC6recordyySSF
            ==================
            WARNING: ThreadSanitizer: data race (pid=20072)
            """
        let report = TSanReport(stderr)
        XCTAssertEqual(report.races, 2)
        XCTAssertEqual(
            report.summary,
            "Swift access race: Modifying access by thread T3 in RequestCounter.record(_:); "
                + "Previous read by main thread in RequestCounter.total.getter (and 1 more report)")
        XCTAssertEqual(TSanReport("all fine\n").races, 0)
    }
}
