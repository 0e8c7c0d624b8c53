import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `workshop check` builds the checks' library first (`swift build --product ExerciseSupport`)
/// when a file it is built from changed after the last build that read it, WorkshopServer's
/// among them; then it checks with the library.
///
/// In a package of its own: a copy of Sources and Package.swift, and a build folder whose
/// entries are links to the real one's (the library, its modules, SwiftPM's records), so the
/// check links the real library; and a stand-in `swift` on PATH that logs how it was called.
/// The real build folder is never written to (`swift test` holds its lock meanwhile).
struct SupportLibraryTests {
    struct StandIn {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("support-\(UUID().uuidString)")
        var package: URL { folder.appendingPathComponent("package") }
        var bin: URL { package.appendingPathComponent(".build/debug") }
        var log: URL { folder.appendingPathComponent("swift.log") }

        init() throws {
            let files = FileManager.default
            let real = WorkshopBinary.directory.resolvingSymlinksInPath()
            try files.createDirectory(at: bin, withIntermediateDirectories: true)
            try files.createDirectory(at: folder.appendingPathComponent("tools"), withIntermediateDirectories: true)
            for name in ["Sources", "Package.swift"] {
                try files.copyItem(
                    at: TestWorkspace.source.appendingPathComponent(name), to: package.appendingPathComponent(name))
            }
            // Not the checks' builds nor the record of builds: those are this package's own.
            for name in try files.contentsOfDirectory(atPath: real.path)
            where name != "exercise-checks" && name != "workshop-builds" {
                try files.createSymbolicLink(
                    at: bin.appendingPathComponent(name), withDestinationURL: real.appendingPathComponent(name))
            }
            let swift = folder.appendingPathComponent("tools/swift")
            try Data("#!/bin/sh\necho \"$(pwd): swift $*\" >> \"\(log.path)\"\n".utf8).write(to: swift)
            try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        }

        var changes: [String: String?] {
            [
                "WORKSHOP_SUPPORT_BUILT": nil, "WORKSHOP_BIN_DIR": bin.path,
                "PATH": folder.appendingPathComponent("tools").path + ":"
                    + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
        }

        var calls: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func editingOneWorkshopServerFileRebuildsTheLibraryBeforeTheNextCheck() async throws {
        let standIn = try StandIn()
        let workspace = try TestWorkspace()
        defer { try? FileManager.default.removeItem(at: standIn.folder) }
        let exercise = Subject.pure
        func check() async throws -> Subprocess.Outcome {
            try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, changes: standIn.changes)
        }
        let failing = "FAIL  \(exercise.failsAsShipped[0])"
        // The copy is newer than the library; a build of it since says it is in the library.
        ProductFreshness.recordBuild(of: "ExerciseSupport", startedAt: Date(), binDirectory: standIn.bin)
        let first = try await check()
        #expect(first.status == 1 && first.stdout.contains(failing), "\(first.stdout)\(first.stderr)")
        #expect(standIn.calls.isEmpty, "\(standIn.calls)")

        let server = standIn.package.appendingPathComponent("Sources/WorkshopServer")
        let file = try #require(
            FileManager.default.subpaths(atPath: server.path)?.sorted().first { $0.hasSuffix(".swift") })
        let handle = try FileHandle(forWritingTo: server.appendingPathComponent(file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("// an edit\n".utf8))
        try handle.close()
        let second = try await check()
        #expect(
            standIn.calls == ["\(standIn.package.path): swift build --product ExerciseSupport -c debug"]
                || standIn.calls == [
                    "\(standIn.package.path): swift build --product ExerciseSupport -c debug --sanitize=thread"
                ], "\(standIn.calls)")
        #expect(second.stderr.contains("Building the checks' library first"), "\(second.stderr)")
        #expect(second.status == 1 && second.stdout.contains(failing), "\(second.stdout)\(second.stderr)")

        // Built since the edit: the next check builds nothing.
        let third = try await check()
        #expect(standIn.calls.count == 1, "\(standIn.calls)")
        #expect(third.status == 1 && third.stdout.contains(failing), "\(third.stdout)\(third.stderr)")
    }
}
