import ExerciseChecks
import Foundation
import WorkshopCore
import XCTest

/// A lesson's second exercise ("03a") is typed like the first: every command takes "03a",
/// "3a" or "03A", and the learner's loop works on it (start, hint, check, solution, reset,
/// watch, verify). Driven on a throwaway workspace of the files as shipped.
final class LetteredIdTests: XCTestCase {
    var workspace: TestWorkspace!

    override func setUpWithError() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        workspace = try TestWorkspace()
    }

    override func tearDown() {
        workspace?.remove()
    }

    func run(_ arguments: [String]) throws -> Subprocess.Outcome {
        try WorkshopBinary.run(arguments, root: workspace.root)
    }

    func testEveryCommandTakesALetteredId() throws {
        let exercise = ExerciseCatalog.named("03a")
        let started = try run(["start", "3a"])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(started.stdout.contains("Exercise 03a: "), started.stdout)

        let hint = try run(["hint", "03A"])
        XCTAssertEqual(hint.status, 0, hint.stderr)
        XCTAssertTrue(hint.stdout.hasPrefix("Hints for exercise 03a"), hint.stdout)

        // As shipped: a failed check (exit 1), not a usage error (exit 64).
        let failing = try run(["check", "3a"])
        XCTAssertEqual(failing.status, 1, failing.stdout + failing.stderr)
        XCTAssertTrue(failing.stdout.contains("FAIL  fetches `width` icons at once"), failing.stdout)
        let watched = try run(["watch", "3a", "--once"])
        XCTAssertEqual(watched.status, 1, watched.stdout + watched.stderr)

        // Before it passes, `solution` keeps the reference hidden and says how to get there.
        let hidden = try run(["solution", "03a"])
        XCTAssertEqual(hidden.status, 1, hidden.stderr)
        XCTAssertFalse(hidden.stdout.contains("withTaskGroup"), hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("swift run workshop hint 03a"), hidden.stdout)

        try workspace.solve(exercise)
        let passing = try run(["check", "03a"])
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)
        let solution = try run(["solution", "3A"])
        XCTAssertEqual(solution.status, 0, solution.stderr)
        XCTAssertTrue(solution.stdout.contains("withTaskGroup"), solution.stdout)
        let list = try run(["list"])
        XCTAssertTrue(
            list.stdout.split(separator: "\n").contains { $0.hasPrefix("> 03a ") && $0.hasSuffix("done") }, list.stdout)

        let reset = try run(["reset", "3a", "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertEqual(
            workspace.contents(exercise.paths[0]),
            try workspace.shipped(exercise))

        let verify = try run(["verify", "3a", "r2"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("verify: all 2 exercises ship unsolved and their references pass"))
    }
}
