import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 01b's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's passes.
final class Exercise01bMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let tokenPassed = "try? client.item(id, cancelToken: token)"
    static let checkOnMain = """
                            // The answer came just before the user's tap and waited for main behind it.
                            guard !token.isCancelled else { return }

        """

    /// The token checked on the queue and on main, but not handed to the request: the one in
    /// flight runs to its end (its answer is then dropped on main).
    func testARequestLeftRunningIsCaught() throws {
        let notPassed = try changed("01b", .solution, Self.tokenPassed, "try? client.item(id)")
        let passed = checked("01b", notPassed)
        XCTAssertEqual(passed["a cancel stops the request in flight"], false)
        XCTAssertEqual(passed["a cancel sends no more requests"], true)
        XCTAssertEqual(passed["nothing is shown after a cancel"], true)
        XCTAssertEqual(passed["a cancel before start sends nothing"], true)
        XCTAssertEqual(passed["the group says when the last block has ended"], true)
    }

    /// The token handed to the request, but not checked again on main: an answer that came
    /// just before the tap is shown after it.
    func testNoCheckOnMainIsCaught() throws {
        let noCheck = try changed("01b", .solution, Self.checkOnMain, "")
        let passed = checked("01b", noCheck)
        XCTAssertEqual(passed["nothing is shown after a cancel"], false)
        XCTAssertEqual(passed["a cancel stops the request in flight"], true)
        XCTAssertEqual(passed["a cancel sends no more requests"], true)
        XCTAssertEqual(passed["the group says when the last block has ended"], true)
    }

    /// A right cancel, but no block counted: notify runs at once.
    func testAnUncountedBlockIsCaught() throws {
        let uncounted = try changed("01b", .solution, "queue.async(group: work) {", "queue.async {")
        let passed = checked("01b", uncounted)
        XCTAssertEqual(passed["the group says when the last block has ended"], false)
        XCTAssertEqual(passed["nothing is shown after a cancel"], true)
        XCTAssertEqual(passed["a cancel stops the request in flight"], true)
    }

    /// `enter()` and `leave()` by hand, the leave forgotten on the cancelled path: the group
    /// never says done after a cancel.
    func testALeaveForgottenOnTheCancelledPathIsCaught() throws {
        let forgotten = try changed(
            "01b", .solution,
            """
                        queue.async(group: work) { [client, screen, token, work] in
                            // Queued before the cancel, run after it: send nothing.
                            guard !token.isCancelled else { return }
            """,
            """
                        work.enter()
                        queue.async { [client, screen, token, work] in
                            guard !token.isCancelled else { return }
                            defer { work.leave() }
            """)
        let passed = checked("01b", forgotten)
        XCTAssertEqual(passed["the group says when the last block has ended"], false)
        XCTAssertEqual(passed["without a cancel, every row is shown once"], true)
    }

    /// Another fix: enter and leave by hand, a `defer` on every path, and the show not
    /// counted (main runs its blocks in order, so notify comes after the last show anyway).
    func testEnterAndLeaveByHandPassesToo() throws {
        var byHand = try changed(
            "01b", .solution, "queue.async(group: work) { [client, screen, token, work] in",
            """
            work.enter()
                        queue.async { [client, screen, token, work] in
                            defer { work.leave() }
            """)
        byHand = byHand.replacingOccurrences(
            of: "DispatchQueue.main.async(group: work) {", with: "DispatchQueue.main.async {")
        XCTAssertEqual(Set(checked("01b", byHand).values), [true])
    }
}
