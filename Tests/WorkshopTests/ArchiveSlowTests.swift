import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The workshop downloaded as a ZIP (GitHub's "Download ZIP" is `git archive` of a commit: the
/// tracked files, no `.git`): in such a tree, away from any repository, the learner's loop works
/// as in a clone. `swift build`; `workshop check` fails the file as shipped; after an edit,
/// `workshop reset --yes` puts back the file as shipped, byte for byte; solved with the reference,
/// `workshop solution` shows it; reset again, `workshop verify` passes. Each command is the
/// copy's own build, run in the copy as a learner runs it (no WORKSHOP_ROOT). The slow tier: the
/// copy is a whole build (minutes the first time; its `.build` is kept for the next run).
@Suite struct ArchiveSlowTests {
    static let root = ExerciseRoot.builtFrom

    /// Outside the package (inside it, git would find the package's repository above the copy),
    /// at a path of this package's own (two worktrees' runs never share one), the same every time.
    static let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sakusaku-archive-" + fingerprint(Data(root.path.utf8)))

    func sh(_ command: String, in folder: URL, timeout: Double = 600) async throws -> Subprocess.Outcome {
        try await Subprocess.run(
            "/bin/sh", ["-c", command], currentDirectory: folder.path, timeout: timeout, in: .shared)
    }

    /// The tree as an archive of it holds it (`PackageTree`), over what the copy had (its
    /// `.build` stays); the learner's files as shipped, whatever they are here.
    func makeCopy() async throws {
        let files = FileManager.default
        try files.createDirectory(at: Self.copy, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: Self.copy.path) where name != ".build" {
            try files.removeItem(at: Self.copy.appendingPathComponent(name))
        }
        let copied = try await sh(
            "\(PackageTree.tar(of: Self.root)) | tar -xpf - -C '\(Self.copy.path)'", in: Self.root)
        #expect(copied.succeeded, "\(copied.stderr)")
        // The versions this tree was built with, so that the copy resolves the same ones.
        let resolved = Self.root.appendingPathComponent("Package.resolved")
        if files.fileExists(atPath: resolved.path) {
            try files.copyItem(at: resolved, to: Self.copy.appendingPathComponent("Package.resolved"))
        }
        for exercise in ExerciseCatalog.exercises {
            for (file, data) in try ShippedFiles.sources(exercise, root: Self.root) {
                try data.write(to: Self.copy.appendingPathComponent(exercise.directory + "/" + file))
            }
        }
    }

    @Test func theLearnersLoopWorksInADownloadWithNoGit() async throws {
        try await makeCopy()
        #expect(!(FileManager.default.fileExists(atPath: Self.copy.appendingPathComponent(".git").path)))
        let build = try await sh("swift build 2>&1", in: Self.copy, timeout: 1800)
        #expect(build.succeeded, "\(String(build.stdout.suffix(3000)) + (build.timedOut ? "\n(timed out)" : ""))")
        guard build.succeeded else { return }

        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = nil
        environment["WORKSHOP_SUPPORT_BUILT"] = nil
        environment["LC_ALL"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["NO_COLOR"] = "1"
        func workshop(_ arguments: [String]) async throws -> Subprocess.Outcome {
            try await Subprocess.run(
                Self.copy.appendingPathComponent(".build/debug/workshop").path, arguments, environment: environment,
                currentDirectory: Self.copy.path, timeout: 600, in: .shared)
        }
        let exercise = Subject.pure
        let (id, path) = (exercise.id, Self.copy.appendingPathComponent(exercise.paths[0]))
        let shipped = try ShippedFiles.contents(exercise, exercise.files[0], root: Self.copy)

        let check = try await workshop(["check", id])
        #expect(check.status == 1, "\(check.stdout + check.stderr)")
        #expect(check.stdout.contains("FAIL  \(exercise.failsAsShipped[0])"), "\(check.stdout)")

        try (Data("// my edit\n".utf8) + shipped).write(to: path)
        let reset = try await workshop(["reset", id, "--yes"])
        #expect(reset.status == 0, "\(reset.stdout + reset.stderr)")
        #expect(FileManager.default.contents(atPath: path.path) == shipped, "the file as shipped, byte for byte")

        try FileManager.default.removeItem(at: path)
        try FileManager.default.copyItem(
            at: Self.copy.appendingPathComponent(exercise.solutionDirectory + "/" + exercise.files[0]), to: path)
        let solution = try await workshop(["solution", id])
        #expect(solution.status == 0, "\(solution.stdout + solution.stderr)")
        #expect(solution.stdout.contains(exercise.solutionDirectory + "/" + exercise.files[0]), "\(solution.stdout)")

        #expect(try await workshop(["reset", id, "--yes"]).status == 0)
        let verify = try await workshop(["verify", id])
        #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
        #expect(
            verify.stdout.contains("verify: exercise \(id) ships unsolved and its reference passes"), "\(verify.stdout)"
        )
        // Nothing they say sends the learner to git.
        for outcome in [check, reset, solution, verify] {
            let words = (outcome.stdout + outcome.stderr).split { !$0.isLetter }
            #expect(!words.contains("git"), "\(outcome.stdout + outcome.stderr)")
        }
    }
}

/// The package's files as an archive of it holds them, for the tests that build a copy of it.
enum PackageTree {
    /// A shell pipeline, run in `root`, that writes them to its output as a tar: the files git
    /// tracks and the new ones it does not ignore; with no git (the package downloaded as a ZIP),
    /// every file but the builds, SwiftPM's state and the learner's progress and backups.
    static func tar(of root: URL) -> String {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)
            ? "git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null"
            : "tar -cf - --exclude='./.build*' --exclude=./.swiftpm --exclude='./.workshop-*' ."
    }
}
