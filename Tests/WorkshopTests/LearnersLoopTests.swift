import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// The learner's loop, end to end, on a throwaway workspace: every exercise solved (with its
/// reference) turns every check and command green; then one file that no longer compiles
/// leaves `list`, `hint`, `solution` and `reset` working, and `check` shows the compiler's error.
final class LearnersLoopSlowTests: XCTestCase {
    func testSolveEverythingThenBreakOneFile() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        defer { workspace.remove() }
        func run(_ arguments: [String]) throws -> Subprocess.Outcome {
            try WorkshopBinary.run(arguments, root: workspace.root)
        }

        for exercise in ExerciseCatalog.exercises {
            try workspace.solve(exercise)
            let check = try run(["check", exercise.id])
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.hasSuffix("\nexercise \(exercise.id) passed\n"), check.stdout)
            XCTAssertFalse(check.stdout.contains("FAIL"), check.stdout)
        }
        let list = try run([])
        let all = ExerciseCatalog.exercises.count
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("[########################] \(all) of \(all) exercises done"), list.stdout)
        XCTAssertTrue(list.stdout.contains("Next: nothing left."), list.stdout)
        let rows = list.stdout.split(separator: "\n").filter { $0.hasSuffix("  done") }
        XCTAssertEqual(rows.count, all, list.stdout)
        let watched = try run(["watch", "--once"])
        XCTAssertEqual(watched.status, 0, watched.stdout)
        XCTAssertEqual(try run(["hint"]).status, 0)
        XCTAssertEqual(try run(["solution", Subject.dataRace.id]).status, 0)

        // One typo (a brace too many) at the end of an ordinary exercise's file.
        let typo = Subject.ordinary[0]
        let file = typo.paths[0]
        let broken = workspace.text(file) + "\n}\n"
        try workspace.write(file, Data(broken.utf8))

        let listed = try run(["list"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("\(all - 1) of \(all) exercises done"), listed.stdout)
        XCTAssertTrue(
            listed.stdout.split(separator: "\n").contains {
                $0.contains(" \(typo.id) ") && $0.hasSuffix("failing (changed since it passed)")
            },
            listed.stdout)
        XCTAssertEqual(try run(["hint", typo.id]).status, 0)
        XCTAssertEqual(try run(["solution", typo.id]).status, 1, "the reference stays hidden: the file fails now")

        let check = try run(["check", typo.id])
        XCTAssertEqual(check.status, 1, check.stdout)
        XCTAssertTrue(check.stdout.contains("FAIL  compiles with the check's driver"), check.stdout)
        XCTAssertTrue(check.stdout.contains("got:    \(file):"), "the error names the file, relative: \(check.stdout)")
        XCTAssertTrue(check.stdout.contains(": error: "), check.stdout)
        XCTAssertFalse(check.stdout.contains(workspace.root.path), check.stdout)

        let reset = try run(["reset", typo.id, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stdout + reset.stderr)
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }
        XCTAssertEqual(backups.map { workspace.text(".workshop-backups/" + $0) }, [broken], "the typo is kept")
        let after = try run(["check", typo.id])
        XCTAssertEqual(after.status, 1)
        XCTAssertTrue(after.stdout.contains("ok    compiles with the check's driver"), after.stdout)
        XCTAssertTrue(after.stdout.contains("FAIL  \(typo.failsAsShipped[0])"), after.stdout)
    }
}
