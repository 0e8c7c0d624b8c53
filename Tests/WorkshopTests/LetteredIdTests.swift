import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// A lesson's second exercise ("NNa") is typed like the first: every command takes "NNa",
/// "3a" or "03A", and the learner's loop works on it (start, hint, check, solution, reset,
/// watch, verify). Driven on a throwaway workspace of the files as shipped.
@Suite struct LetteredIdSlowTests: WorkspaceSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func everyCommandTakesALetteredId() async throws {
        let exercise = Subject.lettered
        let id = exercise.id
        // As a learner types it: without the leading zero, in either case ("9a", "09A").
        let short = id.hasPrefix("0") ? String(id.dropFirst()) : id
        let started = try await run(["start", short])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.contains("Exercise \(id): "), "\(started.stdout)")

        let hint = try await run(["hint", id.uppercased()])
        #expect(hint.status == 0, "\(hint.stderr)")
        #expect(hint.stdout.hasPrefix("Hints for exercise \(id)"), "\(hint.stdout)")

        // As shipped: a failed check (exit 1), not a usage error (exit 64).
        let failing = try await run(["check", short])
        #expect(failing.status == 1, "\(failing.stdout + failing.stderr)")
        #expect(failing.stdout.contains("FAIL  \(exercise.failsAsShipped[0])"), "\(failing.stdout)")
        let watched = try await run(["watch", short, "--once"])
        #expect(watched.status == 1, "\(watched.stdout + watched.stderr)")

        // Before it passes, `solution` keeps the reference hidden and says how to get there.
        // (A line the reference has and the file as shipped has not shows whether it is shown.)
        let reference = workspace.text(exercise.solutionDirectory + "/" + exercise.files[0])
        let shippedLines = Set(workspace.text(exercise.paths[0]).split(separator: "\n"))
        let telling = try #require(
            reference.split(separator: "\n").first { $0.count > 20 && !shippedLines.contains($0) }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        let hidden = try await run(["solution", id])
        #expect(hidden.status == 1, "\(hidden.stderr)")
        #expect(!hidden.stdout.contains(telling), "\(hidden.stdout)")
        #expect(hidden.stdout.contains("swift run workshop hint \(id)"), "\(hidden.stdout)")

        try workspace.solve(exercise)
        let passing = try await run(["check", id])
        #expect(passing.status == 0, "\(passing.stdout + passing.stderr)")
        let solution = try await run(["solution", short.uppercased()])
        #expect(solution.status == 0, "\(solution.stderr)")
        #expect(solution.stdout.contains(telling), "\(solution.stdout)")
        let list = try await run(["list"])
        #expect(
            list.stdout.split(separator: "\n").contains { $0.hasPrefix("> \(id) ") && $0.hasSuffix("done") },
            "\(list.stdout)")

        let reset = try await run(["reset", short, "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try workspace.contents(exercise.paths[0]) == workspace.shipped(exercise))

        let verify = try await run(["verify", short, Subject.all.last!.id.lowercased()])
        #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
        #expect(verify.stdout.contains("verify: all 2 exercises ship unsolved and their references pass"))
    }
}
