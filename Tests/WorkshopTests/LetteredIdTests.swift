import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// A lesson's second exercise ("NNa") is typed like the first: every command takes "NNa",
/// "3a" or "03A", and the learner's loop works on it (start, hint, check, solution, reset,
/// watch, verify). Driven on a throwaway workspace of the files as shipped.
final class LetteredIdSlowTests: XCTestCase {
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
        let exercise = Subject.lettered
        let id = exercise.id
        // As a learner types it: without the leading zero, in either case ("9a", "09A").
        let short = id.hasPrefix("0") ? String(id.dropFirst()) : id
        let started = try run(["start", short])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(started.stdout.contains("Exercise \(id): "), started.stdout)

        let hint = try run(["hint", id.uppercased()])
        XCTAssertEqual(hint.status, 0, hint.stderr)
        XCTAssertTrue(hint.stdout.hasPrefix("Hints for exercise \(id)"), hint.stdout)

        // As shipped: a failed check (exit 1), not a usage error (exit 64).
        let failing = try run(["check", short])
        XCTAssertEqual(failing.status, 1, failing.stdout + failing.stderr)
        XCTAssertTrue(failing.stdout.contains("FAIL  \(exercise.failsAsShipped[0])"), failing.stdout)
        let watched = try run(["watch", short, "--once"])
        XCTAssertEqual(watched.status, 1, watched.stdout + watched.stderr)

        // Before it passes, `solution` keeps the reference hidden and says how to get there.
        // (A line the reference has and the file as shipped has not shows whether it is shown.)
        let reference = workspace.text(exercise.solutionDirectory + "/" + exercise.files[0])
        let shippedLines = Set(workspace.text(exercise.paths[0]).split(separator: "\n"))
        let telling = try XCTUnwrap(
            reference.split(separator: "\n").first { $0.count > 20 && !shippedLines.contains($0) }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        let hidden = try run(["solution", id])
        XCTAssertEqual(hidden.status, 1, hidden.stderr)
        XCTAssertFalse(hidden.stdout.contains(telling), hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("swift run workshop hint \(id)"), hidden.stdout)

        try workspace.solve(exercise)
        let passing = try run(["check", id])
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)
        let solution = try run(["solution", short.uppercased()])
        XCTAssertEqual(solution.status, 0, solution.stderr)
        XCTAssertTrue(solution.stdout.contains(telling), solution.stdout)
        let list = try run(["list"])
        XCTAssertTrue(
            list.stdout.split(separator: "\n").contains { $0.hasPrefix("> \(id) ") && $0.hasSuffix("done") },
            list.stdout)

        let reset = try run(["reset", short, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertEqual(
            workspace.contents(exercise.paths[0]),
            try workspace.shipped(exercise))

        let verify = try run(["verify", short, Subject.all.last!.id.lowercased()])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("verify: all 2 exercises ship unsolved and their references pass"))
    }
}
