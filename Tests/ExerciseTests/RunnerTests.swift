import ExerciseChecks
import Foundation
import XCTest

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
        XCTAssertEqual(report.results.map(\.name), [ExerciseRunner.compileCheck, "your code runs without a crash"])
        let crash = try XCTUnwrap(report.results.last)
        XCTAssertFalse(crash.passed)
        XCTAssertTrue(crash.expected.contains("main queue"), crash.expected)
        XCTAssertEqual(crash.hint, mainQueueHint)
        XCTAssertTrue(crash.got.contains("stopped by signal"), crash.got)
        if !Toolchain.builtWithThreadSanitizer {  // under the sanitizer the crash reporter is off
            XCTAssertTrue(crash.got.contains("at Exercises/03-icons-off-main/IconLoader.swift:"), crash.got)
        }
    }

    func testAHangIsAFailedCheckAfterTheTimeLimit() throws {
        let lineBreaker = ExerciseFiles.exercise("07")
        let hanging = try ExerciseFiles.text(lineBreaker, .shipped).replacingOccurrences(
            of: "var lines: [String] = []", with: "var lines: [String] = []\n        while lines.isEmpty {}")
        var runner = ExerciseRunner()
        runner.runTimeout = 3
        let report = runner.check(lineBreaker, sources: ExerciseFiles.sources(lineBreaker, text: hanging))
        let hang = try XCTUnwrap(report.results.last)
        XCTAssertEqual(hang.name, "your code runs without a crash")
        XCTAssertTrue(hang.got.hasPrefix("no answer within 3 s"), hang.got)
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
