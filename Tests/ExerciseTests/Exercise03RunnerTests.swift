import Foundation
import WorkshopCore
import XCTest

@testable import ExerciseChecks
@testable import WorkshopTools

/// A learner's file in any state is a failed check, never a dead check, shown on exercise
/// 03's file: a compile error, a name the driver needs gone, a trap off the main queue, a missing file.
final class Exercise03RunnerTests: XCTestCase {
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

    /// Slow tier: a compile of its own (5 s); the learner's suite keeps the compile-error case.
    func testANameTheDriverUsesThatIsGoneIsExplained() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
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

    func testAMissingFileIsAFailedCheckThatSaysHowToGetItBack() {
        let report = ExerciseRunner().check(iconLoader, sources: [:])
        XCTAssertEqual(report.results.map(\.name), ["the exercise file is there"])
        XCTAssertTrue(report.results[0].got.contains("swift run workshop reset 03"), report.results[0].got)
    }
}
