import Foundation
import Testing
import WorkshopCore

@testable import WorkshopTools

/// Small programs compiled the way a check program is (Swift 6, the package's upcoming
/// features, linked with ExerciseSupport, thread-sanitized when the library is), for what only
/// a program of its own shows: its main thread, a crash. Each in a folder of its own under
/// `folder`, which the suite's `.removing(programs)` trait removes once the suite has run.
final class LinkedPrograms: Sendable {
    let folder: URL

    init(_ name: String) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// Compiles `source` as a program's `main.swift`; the path of the program. A compile is a
    /// child that works: in one of the suites' shared slots.
    func compile(_ source: String) async throws -> String {
        let toolchain = Toolchain.current
        let work = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: work.appendingPathComponent("main.swift"))
        let bin = toolchain.binDirectory.path
        var arguments = ExerciseRunner.languageFlags + ["-suppress-warnings", "-Onone", "-module-name", "Linked"]
        arguments += ["-I", bin + "/Modules"] + toolchain.moduleMapDirectories.flatMap { ["-I", $0] }
        arguments += ["-L", bin, "-lExerciseSupport", "-Xlinker", "-rpath", "-Xlinker", bin]
        arguments += ["-module-cache-path", ExerciseRunner(toolchain: toolchain).moduleCache.path]
        if toolchain.threadSanitizer { arguments.append("-sanitize=thread") }
        let output = work.appendingPathComponent("program").path
        let compile = try await Subprocess.run(
            "swiftc", arguments + ["-o", output, "main.swift"], currentDirectory: work.path, timeout: 300,
            in: .shared)
        try #require(compile.succeeded, "\(compile.stdout)\(compile.stderr)\(compile.describeEnd(timeout: 300))")
        return output
    }

    /// Removes the suite's programs once all its tests have run.
    struct Removing: SuiteTrait, TestScoping {
        let programs: LinkedPrograms

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
        ) async throws {
            defer { try? FileManager.default.removeItem(at: programs.folder) }
            try await function()
        }
    }
}

extension Trait where Self == LinkedPrograms.Removing {
    /// Removes `programs`' folder once the suite has run.
    static func removing(_ programs: LinkedPrograms) -> Self { Self(programs: programs) }
}
