import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise R2's checks beyond the two-way proof: a check catches the mistake it is named
/// after and passes what it is not about, and a fix other than the reference's passes.
final class ExerciseR2MutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    /// Checking again after the `await`: no overwrite, but every caller still fetches.
    func testARecheckAfterTheAwaitStopsTheOverwriteOnly() throws {
        let recheck = try changed(
            "R2", .shipped, "        avatars[name] = avatar\n",
            "        if let first = avatars[name] { return first }\n        avatars[name] = avatar\n")
        let passed = checked("R2", recheck)
        XCTAssertEqual(passed["everyone asking for a name gets the same avatar"], true)
        XCTAssertEqual(passed["each avatar is fetched once, however many ask at once"], false)
    }

    /// The in-flight tasks kept even when they fail: the failure is served forever.
    func testAFailedFetchKeptInTheCacheIsCaught() throws {
        let keepsFailures = try changed("R2", .solution, "            avatars[name] = nil\n", "")
        let passed = checked("R2", keepsFailures)
        XCTAssertEqual(passed["each avatar is fetched once, however many ask at once"], true)
        XCTAssertEqual(passed["a failed fetch is not kept: the next ask fetches again"], false)
    }
}
