import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 02a's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's passes.
final class Exercise02aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let cancelOnTermination = "if case .cancelled = ending { redirects.cancel { task.cancel() } }"
    static let refuseErrorPage = "guard (200..<300).contains(status) else {"

    /// The stream ends, but `onTermination` cancels nothing: the download runs on after the
    /// consumer's task is cancelled, and the server writes the whole feed.
    func testADownloadLeftRunningIsCaught() throws {
        let leftRunning = try changed("02a", .solution, Self.cancelOnTermination, "_ = (ending, redirects, task)")
        let passed = checked("02a", leftRunning)
        XCTAssertEqual(passed["a cancel stops the download"], false)
        XCTAssertEqual(passed["the stream ends after the last chunk"], true)
        XCTAssertEqual(passed["an HTTP 500 ends the stream with an error"], true)
        XCTAssertEqual(passed["every byte arrives, in order"], true)
    }

    /// The error page downloaded as if it were the feed (the stream still ends): its bytes come
    /// as a chunk.
    func testAnErrorPageHandedOverIsCaught() throws {
        let handedOver = try changed(
            "02a", .solution, Self.refuseErrorPage, "guard (0..<1000).contains(status) else {")
        let passed = checked("02a", handedOver)
        XCTAssertEqual(passed["an HTTP 500 ends the stream with an error"], false)
        XCTAssertEqual(passed["a cancel stops the download"], true)
        XCTAssertEqual(passed["the stream ends after the last chunk"], true)
    }

    /// Another fix: the task cancelled however the stream ended (a finished task ignores it).
    func testCancellingOnEveryEndingPassesToo() throws {
        let always = try changed(
            "02a", .solution, Self.cancelOnTermination, "_ = ending\n            redirects.cancel { task.cancel() }")
        XCTAssertEqual(Set(checked("02a", always).values), [true])
    }
}
