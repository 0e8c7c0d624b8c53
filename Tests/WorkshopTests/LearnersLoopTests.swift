import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The learner's loop, end to end, on a throwaway workspace: every exercise solved (with its
/// reference) turns every check and command green; then one file that no longer compiles
/// leaves `list`, `hint`, `solution` and `reset` working, and `check` shows the compiler's error.
@Suite struct LearnersLoopSlowTests {
    @Test func solveEverythingThenBreakOneFile() async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        func run(_ arguments: [String]) async throws -> Subprocess.Outcome {
            try await WorkshopBinary.run(arguments, root: workspace.root)
        }

        for exercise in ExerciseCatalog.exercises {
            try workspace.solve(exercise)
            let check = try await run(["check", exercise.id])
            #expect(check.status == 0, "\(check.stdout + check.stderr)")
            #expect(check.stdout.hasSuffix("\nexercise \(exercise.id) passed\n"), "\(check.stdout)")
            #expect(!check.stdout.contains("FAIL"), "\(check.stdout)")
        }
        let list = try await run([])
        let all = ExerciseCatalog.exercises.count
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("[########################] \(all) of \(all) exercises done"), "\(list.stdout)")
        #expect(list.stdout.contains("Next: nothing left."), "\(list.stdout)")
        let rows = list.stdout.split(separator: "\n").filter { $0.hasSuffix("  done") }
        #expect(rows.count == all, "\(list.stdout)")
        let watched = try await run(["watch", "--once"])
        #expect(watched.status == 0, "\(watched.stdout)")
        #expect(try await run(["hint"]).status == 0)
        #expect(try await run(["solution", Subject.dataRace.id]).status == 0)

        // One typo (a brace too many) at the end of an ordinary exercise's file.
        let typo = Subject.ordinary[0]
        let file = typo.paths[0]
        let broken = workspace.text(file) + "\n}\n"
        try workspace.write(file, Data(broken.utf8))

        let listed = try await run(["list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\(all - 1) of \(all) exercises done"), "\(listed.stdout)")
        #expect(
            listed.stdout.split(separator: "\n").contains {
                $0.contains(" \(typo.id) ") && $0.hasSuffix("failing (changed since it passed)")
            }, "\(listed.stdout)")
        #expect(try await run(["hint", typo.id]).status == 0)
        #expect(try await run(["solution", typo.id]).status == 1, "the reference stays hidden: the file fails now")

        let check = try await run(["check", typo.id])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("FAIL  compiles with the check's driver"), "\(check.stdout)")
        #expect(check.stdout.contains("got:    \(file):"), "the error names the file, relative: \(check.stdout)")
        #expect(check.stdout.contains(": error: "), "\(check.stdout)")
        #expect(!check.stdout.contains(workspace.root.path), "\(check.stdout)")

        let reset = try await run(["reset", typo.id, "--yes"])
        #expect(reset.status == 0, "\(reset.stdout + reset.stderr)")
        let backups = try FileManager.default.subpathsOfDirectory(atPath: workspace.path(".workshop-backups"))
            .filter { $0.hasSuffix(".swift") }
        #expect(backups.map { workspace.text(".workshop-backups/" + $0) } == [broken], "the typo is kept")
        let after = try await run(["check", typo.id])
        #expect(after.status == 1)
        #expect(after.stdout.contains("ok    compiles with the check's driver"), "\(after.stdout)")
        #expect(after.stdout.contains("FAIL  \(typo.failsAsShipped[0])"), "\(after.stdout)")
    }
}
