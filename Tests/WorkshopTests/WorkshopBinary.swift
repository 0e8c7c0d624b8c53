import ExerciseChecks
import Foundation
import WorkshopCore
import Testing

/// The built `workshop` binary (and its siblings), driven the way a learner or CI drives it.
enum WorkshopBinary {
    static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static var path: String { directory.appendingPathComponent("workshop").path }
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `workshop arguments` with the exercises at `root`, no terminal, no colour.
    static func run(_ arguments: [String], root: URL, timeout: Double = 240) throws -> Subprocess.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = root.path
        environment["NO_COLOR"] = "1"
        return try Subprocess.run(path, arguments, environment: environment, currentDirectory: root.path, timeout: timeout)
    }
}

/// A throwaway copy of the learner's side of the workshop (Exercises/, Lessons/ and the
/// references under Tests/), so tests never touch the real Exercises/.
struct WorkshopCopy {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("workshop-copy-\(UUID().uuidString)")
        let source = ExerciseRoot.builtFrom
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Tests/ExerciseTests"), withIntermediateDirectories: true)
        for folder in ["Exercises", "Lessons", "Tests/ExerciseTests/Solutions"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        try Data("// swift-tools-version:6.0\n".utf8).write(to: root.appendingPathComponent("Package.swift"))
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    func write(_ relative: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(relative))) }

    func contents(_ relative: String) -> Data? { FileManager.default.contents(atPath: path(relative)) }

    /// Puts the reference solution of R1 in place of the learner's file.
    func solveR1() throws {
        try write(ExerciseR1Checks.exerciseFile, try #require(contents(ExerciseR1Checks.referenceFile)))
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
