import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// Progress is only a cache of what the checks said: a corrupt or missing progress file is
/// rebuilt from the checks (never a crash), and `git stash` / `git pull` lose nothing.
///
/// What ProgressSurvivalTests and ProgressSurvivalSlowTests (the slow tier) share; no tests of its own.
class ProgressSurvivalCase: XCTestCase {
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

    func status(_ id: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.dropFirst(2).hasPrefix(id + " ") }?
            .split(separator: " ").last.map(String.init)
    }

    func git(_ arguments: [String], in folder: URL) throws -> Subprocess.Outcome {
        let outcome = try Subprocess.run(
            "git", ["-c", "user.name=Learner", "-c", "user.email=learner@example.com"] + arguments,
            currentDirectory: folder.path, timeout: 60)
        XCTAssertEqual(outcome.status, 0, "git \(arguments): \(outcome.stderr)")
        return outcome
    }
}

final class ProgressSurvivalTests: ProgressSurvivalCase {
    func testProgressSurvivesGitStashAndGitPull() throws {
        try XCTSkipUnless(
            (try? Subprocess.run("git", ["--version"], timeout: 30))?.succeeded == true, "git is not installed")
        // The room's repository ("upstream") and the learner's clone of it.
        try workspace.write(".gitignore", Data(".workshop-progress\n.workshop-backups/\n".utf8))
        _ = try git(["init", "-q", "-b", "main"], in: workspace.root)
        _ = try git(["add", "-A"], in: workspace.root)
        _ = try git(["commit", "-qm", "the workshop"], in: workspace.root)
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("workshop-clone-\(UUID())")
        defer { try? FileManager.default.removeItem(at: clone) }
        _ = try git(["clone", "-q", workspace.root.path, clone.path], in: workspace.root)
        func learner(_ arguments: [String]) throws -> Subprocess.Outcome {
            try WorkshopBinary.run(arguments, root: clone)
        }

        let pure = Subject.pure
        let id = pure.id
        try Data(
            contentsOf: workspace.root.appendingPathComponent(pure.solutionDirectory + "/" + pure.files[0])
        )
        .write(to: clone.appendingPathComponent(pure.paths[0]))
        XCTAssertEqual(try learner(["check", id]).status, 0)
        XCTAssertEqual(status(id, in: try learner(["list"]).stdout), "done")

        // Stashed: the file is as shipped again; checked as shipped, it fails.
        _ = try git(["stash", "-q"], in: clone)
        XCTAssertEqual(status(id, in: try learner(["list"]).stdout), "started")
        XCTAssertEqual(try learner(["check", id]).status, 1)
        // Popped: the version that passed is back, and done, without another check.
        _ = try git(["stash", "pop", "-q"], in: clone)
        XCTAssertEqual(status(id, in: try learner(["list"]).stdout), "done")

        // Upstream moves on (the instructor fixes a README); the learner commits and pulls.
        let readme = workspace.root.appendingPathComponent(pure.directory + "/README.md")
        try (String(contentsOf: readme, encoding: .utf8) + "\nOne more note.\n").write(
            to: readme, atomically: true, encoding: .utf8)
        _ = try git(["commit", "-qam", "a note"], in: workspace.root)
        _ = try git(["commit", "-qam", "my exercise"], in: clone)
        _ = try git(["pull", "-q", "--no-rebase", "--no-edit"], in: clone)
        let after = try learner(["list"])
        XCTAssertEqual(status(id, in: after.stdout), "done", after.stdout)
        XCTAssertTrue(after.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), after.stdout)
        XCTAssertEqual(after.stderr, "")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class ProgressSurvivalSlowTests: ProgressSurvivalCase {
    func testACorruptProgressFileIsRebuiltFromTheChecks() throws {
        let (pure, tried, hinted) = (Subject.pure, Subject.ordinary[0], Subject.ordinary[1])
        try workspace.solve(pure)
        XCTAssertEqual(try run(["check", pure.id]).status, 0)
        // One changed but not solved: it is checked again too, and fails.
        try workspace.write(tried.paths[0], Data(("// tried\n" + workspace.text(tried.paths[0])).utf8))
        XCTAssertEqual(try run(["hint", hinted.id]).status, 0)
        let good = workspace.text(".workshop-progress")
        XCTAssertTrue(good.contains("\"hintsShown\" : 1"), good)

        let truncated = String(good.prefix(good.count / 2))
        for garbage in ["{not json", "{\"exercises\": 5}", "[]", "", truncated, "\u{FF}\u{FE}binary"] {
            try workspace.write(".workshop-progress", Data(garbage.utf8))
            let list = try run(["list"])
            XCTAssertEqual(list.status, 0, "\(garbage): \(list.stderr)")
            XCTAssertFalse(list.signaled)
            XCTAssertTrue(list.stderr.contains(".workshop-progress could not be read"), "\(garbage): \(list.stderr)")
            XCTAssertTrue(list.stderr.contains("rebuilding it from the checks"), list.stderr)
            XCTAssertEqual(workspace.text(".workshop-progress.unreadable"), garbage)
            XCTAssertTrue(list.stdout.contains("1 of \(ExerciseCatalog.exercises.count) exercises done"), list.stdout)
            XCTAssertEqual(status(pure.id, in: list.stdout), "done", list.stdout)
            XCTAssertEqual(status(tried.id, in: list.stdout), "failing", list.stdout)
            XCTAssertEqual(status(hinted.id, in: list.stdout), "started", "untouched: not started\n\(list.stdout)")
            // Rebuilt and saved: the next command reads it without a word, and counts on.
            let saved = try XCTUnwrap(workspace.contents(".workshop-progress"))
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: saved), "rebuilt as JSON")
            let hint = try run(["hint", hinted.id])
            XCTAssertEqual(hint.stderr, "")
            XCTAssertTrue(hint.stdout.contains("(1 of \(hinted.hints))"), "hint counts start again: \(hint.stdout)")
        }

        // A deleted progress file is rebuilt the same way, quietly.
        try FileManager.default.removeItem(atPath: workspace.path(".workshop-progress"))
        let list = try run(["list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(status(pure.id, in: list.stdout), "done", list.stdout)
    }
}
