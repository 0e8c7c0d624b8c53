import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The built `workshop` binary (and its siblings), driven the way a learner or CI drives it.
enum WorkshopBinary {
    static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static var path: String { directory.appendingPathComponent("workshop").path }
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// The environment of a run at `root`: no terminal, no colour, and the checks' library
    /// taken as built (`swift test` built it, and holds the build folder's lock meanwhile).
    static func environment(root: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = root.path
        environment["NO_COLOR"] = "1"
        environment["WORKSHOP_SUPPORT_BUILT"] = "1"
        // English unless a test asks for Japanese, whatever the machine's locale.
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["EDITOR"] = nil
        return environment
    }

    /// Runs `workshop arguments` with the exercises at `root`, in `directory` (a folder under
    /// `root`; default: the root itself); `changes` sets (or with nil removes) environment
    /// variables. In one of the slots every suite's children share (`Subprocess.Slots.shared`),
    /// waited for off Swift's pool.
    static func run(
        _ arguments: [String], root: URL, in directory: String? = nil, changes: [String: String?] = [:],
        timeout: Double = 300
    ) async throws -> Subprocess.Outcome {
        try #require(isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        var environment = environment(root: root)
        for (name, value) in changes { environment[name] = value }
        let folder = directory.map { root.appendingPathComponent($0).path } ?? root.path
        return try await Subprocess.run(
            path, arguments, environment: environment, currentDirectory: folder, timeout: timeout, in: .shared)
    }
}

/// A throwaway workshop made of the files as shipped, never the learner's: the lessons and
/// every exercise's folder (its texts, its `.meta` with driver, reference and copies as
/// shipped) with the learner's files as shipped. No git, as in a ZIP download: nothing the
/// learner's commands do needs it (a test that wants a repository makes one). Removed when
/// the last reference to it goes (a suite's instance, made for one test).
final class TestWorkspace: Sendable {
    let root: URL
    static let source = ExerciseRoot.builtFrom

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("workshop-test-\(UUID().uuidString)")
        let files = FileManager.default
        try files.createDirectory(at: root, withIntermediateDirectories: true)
        for folder in ["Lessons", "Exercises"] {
            try files.copyItem(at: Self.source.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        for exercise in ExerciseCatalog.exercises {
            for (file, data) in try ShippedFiles.sources(exercise, root: Self.source) {
                try write(exercise.directory + "/" + file, data)
            }
        }
        try Data("// swift-tools-version:6.0\n".utf8).write(to: root.appendingPathComponent("Package.swift"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Runs `workshop arguments` here (see `WorkshopBinary.run`).
    func run(
        _ arguments: [String], _ changes: [String: String?] = [:], in directory: String? = nil, timeout: Double = 300
    ) async throws -> Subprocess.Outcome {
        try await WorkshopBinary.run(arguments, root: root, in: directory, changes: changes, timeout: timeout)
    }

    /// The exercise's one file as shipped.
    func shipped(_ exercise: Exercise) throws -> Data {
        try ShippedFiles.contents(exercise, exercise.files[0], root: root)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    func write(_ relative: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path(relative))) }

    func contents(_ relative: String) -> Data? { FileManager.default.contents(atPath: path(relative)) }

    func text(_ relative: String) -> String { String(decoding: contents(relative) ?? Data(), as: UTF8.self) }

    /// Copies `folder`'s files of `exercise` (e.g. its solution) over the learner's.
    func install(_ exercise: Exercise, from folder: String) throws {
        for file in exercise.files {
            let target = exercise.directory + "/" + file
            try? FileManager.default.removeItem(atPath: path(target))
            try FileManager.default.copyItem(atPath: path(folder + "/" + file), toPath: path(target))
        }
    }

    /// Solves `exercise` with its reference solution.
    func solve(_ exercise: Exercise) throws { try install(exercise, from: exercise.solutionDirectory) }
}

/// A suite whose every test gets a workspace of its own (each test has an instance of the
/// suite, made by its `init`) and drives the built `workshop` on it: the setup the learner's
/// commands' suites share.
protocol WorkspaceSuite {
    var workspace: TestWorkspace { get }
}

extension WorkspaceSuite {
    /// Runs `workshop arguments` on the suite's workspace (see `WorkshopBinary.run`).
    func run(_ arguments: [String], _ changes: [String: String?] = [:], in directory: String? = nil)
        async throws -> Subprocess.Outcome
    {
        try await workspace.run(arguments, changes, in: directory)
    }
}

struct TestWorkspaceFailure: Error, CustomStringConvertible {
    let description: String
}

extension ExerciseCatalog {
    static func named(_ id: String) -> Exercise {
        guard let exercise = exercise(id: id) else { preconditionFailure("no exercise \(id)") }
        return exercise
    }
}
