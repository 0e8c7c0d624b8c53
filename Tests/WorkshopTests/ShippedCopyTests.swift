import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `reset` and `solution` read what shipped from the exercise's folder (`.meta/shipped`,
/// `.meta/solution`), never from git: in a workspace with no `.git`, as a ZIP download is,
/// `reset` puts the file back byte for byte; a copy that is missing is named, with what to do,
/// in both languages and without a word of git, and nothing is changed.
@Suite struct ShippedCopyTests {
    @Test func resetNeedsNoGitAndAMissingCopyIsNamedWithWhatToDo() async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        func run(_ arguments: [String]) async throws -> Subprocess.Outcome {
            try await WorkshopBinary.run(arguments, root: workspace.root)
        }
        #expect(!(FileManager.default.fileExists(atPath: workspace.path(".git"))), "no git, as in a ZIP")
        let exercise = Subject.pure
        let (id, file) = (exercise.id, exercise.files[0])
        let shipped = try workspace.shipped(exercise)
        let mine = Data("// my attempt\n".utf8) + shipped

        try workspace.write(exercise.paths[0], mine)
        let reset = try await run(["reset", id, "--yes"])
        #expect(reset.status == 0, "\(reset.stdout + reset.stderr)")
        #expect(workspace.contents(exercise.paths[0]) == shipped, "the file as shipped, byte for byte")

        // The copy gone: reset says which file and what to do, and leaves the learner's file alone.
        let copy = ShippedFiles.path(exercise, file)
        try workspace.write(exercise.paths[0], mine)
        try FileManager.default.removeItem(atPath: workspace.path(copy))
        for (language, words) in [("en", "comes with the workshop"), ("ja", "ワークショップに含まれています")] {
            let refused = try await run(["reset", id, "--yes", "--lang", language])
            #expect(refused.status == 1, "\(refused.stdout + refused.stderr)")
            #expect(refused.stderr.contains(copy) && refused.stderr.contains(words), "\(refused.stderr)")
            #expect(!(refused.stderr.split { !$0.isLetter }.contains("git")), "\(refused.stderr)")
        }
        #expect(workspace.contents(exercise.paths[0]) == mine, "nothing was changed")

        // The reference gone: `solution` says the same, without git.
        let reference = exercise.solutionDirectory + "/" + file
        try FileManager.default.removeItem(atPath: workspace.path(reference))
        let solution = try await run(["solution", id])
        #expect(solution.status == 1, "\(solution.stdout + solution.stderr)")
        #expect(
            solution.stderr.contains(reference) && solution.stderr.contains("comes with the workshop"),
            "\(solution.stderr)")
        #expect(!(solution.stderr.split { !$0.isLetter }.contains("git")), "\(solution.stderr)")
    }
}
