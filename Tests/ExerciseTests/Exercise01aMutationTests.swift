import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 01a's checks beyond the two-way proof: a check catches the mistake it is named
/// after and passes what it is not about, and a fix other than the reference's passes.
final class Exercise01aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    /// Child tasks, but the cancel swallowed: the caller cannot tell a cancel from "nothing".
    func testASwallowedCancelIsCaught() throws {
        let swallowed = try changed(
            "01a", .solution, "let account = try await (user: user, items: items)",
            "guard let account = try? await (user: user, items: items) else { return }")
        let passed = checked("01a", swallowed)
        XCTAssertEqual(passed["a cancel stops the requests in flight"], true)
        XCTAssertEqual(passed["a cancel ends the call promptly"], true)
        XCTAssertEqual(passed["nothing is shown after a cancel"], true)
        XCTAssertEqual(passed["the cancel reaches the caller as CancellationError"], false)
        XCTAssertEqual(passed["a failed request is thrown, not shown"], false)
    }

    /// Another fix: a throwing task group of two instead of `async let`.
    func testATaskGroupPassesToo() throws {
        let group = try changed(
            "01a", .solution,
            """
                    async let user = service.user(token: token)
                    async let items = service.items(token: token)
                    let account = try await (user: user, items: items)
            """,
            """
                    var account = (user: "", items: [String]())
                    try await withThrowingTaskGroup(of: (String?, [String]?).self) { group in
                        group.addTask { (try await service.user(token: token), nil) }
                        group.addTask { (nil, try await service.items(token: token)) }
                        for try await answer in group {
                            if let user = answer.0 { account.user = user }
                            if let items = answer.1 { account.items = items }
                        }
                    }
            """)
        XCTAssertEqual(Set(checked("01a", group).values), [true])
    }
}
