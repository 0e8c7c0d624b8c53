import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// Progress is only a cache of what the checks said: a corrupt or missing progress file is
/// rebuilt from the checks (never a crash), and `git stash` / `git pull` lose nothing.
///
/// What ProgressSurvivalTests and ProgressSurvivalSlowTests (the slow tier) share.
protocol ProgressSurvivalSuite: WorkspaceSuite {}

extension ProgressSurvivalSuite {
    func status(_ id: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.dropFirst(2).hasPrefix(id + " ") }?
            .split(separator: " ").last.map(String.init)
    }

    func git(_ arguments: [String], in folder: URL) async throws -> Subprocess.Outcome {
        let outcome = try await Subprocess.run(
            "git", ["-c", "user.name=Learner", "-c", "user.email=learner@example.com"] + arguments,
            currentDirectory: folder.path, timeout: 60, in: .shared)
        #expect(outcome.status == 0, "git \(arguments): \(outcome.stderr)")
        return outcome
    }
}

@Suite struct ProgressSurvivalTests: ProgressSurvivalSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func progressSurvivesGitStashAndGitPull() async throws {
        // The room's repository ("upstream") and the learner's clone of it.
        try workspace.write(".gitignore", Data(".workshop-progress\n.workshop-backups/\n".utf8))
        _ = try await git(["init", "-q", "-b", "main"], in: workspace.root)
        _ = try await git(["add", "-A"], in: workspace.root)
        _ = try await git(["commit", "-qm", "the workshop"], in: workspace.root)
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("workshop-clone-\(UUID())")
        defer { try? FileManager.default.removeItem(at: clone) }
        _ = try await git(["clone", "-q", workspace.root.path, clone.path], in: workspace.root)
        func learner(_ arguments: [String]) async throws -> Subprocess.Outcome {
            try await WorkshopBinary.run(arguments, root: clone)
        }

        let pure = Subject.pure
        let id = pure.id
        try Data(
            contentsOf: workspace.root.appendingPathComponent(pure.solutionDirectory + "/" + pure.files[0])
        )
        .write(to: clone.appendingPathComponent(pure.paths[0]))
        #expect(try await learner(["check", id]).status == 0)
        #expect(status(id, in: try await learner(["list"]).stdout) == "done")

        // Stashed: the file is as shipped again; checked as shipped, it fails.
        _ = try await git(["stash", "-q"], in: clone)
        #expect(status(id, in: try await learner(["list"]).stdout) == "started")
        #expect(try await learner(["check", id]).status == 1)
        // Popped: the version that passed is back, and done, without another check.
        _ = try await git(["stash", "pop", "-q"], in: clone)
        #expect(status(id, in: try await learner(["list"]).stdout) == "done")

        // Upstream moves on (the instructor fixes a README); the learner commits and pulls.
        let readme = workspace.root.appendingPathComponent(pure.directory + "/README.md")
        try (String(contentsOf: readme, encoding: .utf8) + "\nOne more note.\n").write(
            to: readme, atomically: true, encoding: .utf8)
        _ = try await git(["commit", "-qam", "a note"], in: workspace.root)
        _ = try await git(["commit", "-qam", "my exercise"], in: clone)
        _ = try await git(["pull", "-q", "--no-rebase", "--no-edit"], in: clone)
        let after = try await learner(["list"])
        #expect(status(id, in: after.stdout) == "done", "\(after.stdout)")
        #expect(after.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), "\(after.stdout)")
        #expect(after.stderr == "")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct ProgressSurvivalSlowTests: ProgressSurvivalSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func aCorruptProgressFileIsRebuiltFromTheChecks() async throws {
        let (pure, tried, hinted) = (Subject.pure, Subject.ordinary[0], Subject.ordinary[1])
        try workspace.solve(pure)
        #expect(try await run(["check", pure.id]).status == 0)
        // One changed but not solved: it is checked again too, and fails.
        try workspace.write(tried.paths[0], Data(("// tried\n" + workspace.text(tried.paths[0])).utf8))
        #expect(try await run(["hint", hinted.id]).status == 0)
        let good = workspace.text(".workshop-progress")
        #expect(good.contains("\"hintsShown\" : 1"), "\(good)")

        let truncated = String(good.prefix(good.count / 2))
        for garbage in ["{not json", "{\"exercises\": 5}", "[]", "", truncated, "\u{FF}\u{FE}binary"] {
            try workspace.write(".workshop-progress", Data(garbage.utf8))
            let list = try await run(["list"])
            #expect(list.status == 0, "\(garbage): \(list.stderr)")
            #expect(!list.signaled)
            #expect(list.stderr.contains(".workshop-progress could not be read"), "\(garbage): \(list.stderr)")
            #expect(list.stderr.contains("rebuilding it from the checks"), "\(list.stderr)")
            #expect(workspace.text(".workshop-progress.unreadable") == garbage)
            #expect(list.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), "\(list.stdout)")
            #expect(status(pure.id, in: list.stdout) == "done", "\(list.stdout)")
            #expect(status(tried.id, in: list.stdout) == "failing", "\(list.stdout)")
            #expect(status(hinted.id, in: list.stdout) == "started", "untouched: not started\n\(list.stdout)")
            // Rebuilt and saved: the next command reads it without a word, and counts on.
            let saved = try #require(workspace.contents(".workshop-progress"))
            #expect(throws: Never.self, "rebuilt as JSON") { try JSONSerialization.jsonObject(with: saved) }
            let hint = try await run(["hint", hinted.id])
            #expect(hint.stderr == "")
            #expect(hint.stdout.contains("(1 of \(hinted.hints))"), "hint counts start again: \(hint.stdout)")
        }

        // A deleted progress file is rebuilt the same way, quietly.
        try FileManager.default.removeItem(atPath: workspace.path(".workshop-progress"))
        let list = try await run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(status(pure.id, in: list.stdout) == "done", "\(list.stdout)")
    }
}
