import Foundation
import WorkshopCore

/// What a check's driver (the main.swift compiled with the learner's files, see
/// `Exercise.driver`) uses to talk to the `ExerciseRunner` that started it.
public enum ExerciseDriver {
    /// The line the results are printed on, after this marker, as JSON.
    public static let marker = "WORKSHOP-RESULTS "
    /// The environment variable with the path of the thread-sanitized build, when there is one.
    public static let sanitizedBuildVariable = "WORKSHOP_SANITIZED_BUILD"
    /// Set instead when that build did not compile: the compiler's message.
    public static let sanitizedBuildErrorVariable = "WORKSHOP_SANITIZED_BUILD_ERROR"

    /// The environment variable with the folder that holds the learner's files as checked.
    public static let sourcesVariable = "WORKSHOP_CHECKED_SOURCES"

    /// The learner's file `name` as checked (not as it is on disk now), or nil when the runner
    /// gave none: for a check that reads the source itself.
    public static func source(_ name: String) -> String? {
        guard let folder = ProcessInfo.processInfo.environment[sourcesVariable], !folder.isEmpty,
            let data = FileManager.default.contents(atPath: folder + "/" + name)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The argument that asks a check program for its checks' declarations instead of a run.
    public static let listArgument = "--list-checks"
    /// The line the declarations are printed on, after this marker, as JSON.
    public static let checksMarker = "WORKSHOP-CHECKS "

    /// A check program's whole life: asked with `--list-checks`, it prints `checks` (the
    /// exercise's checks as declared, in the order their results come) and ends; else it runs
    /// them and reports the results.
    public static func run(_ checks: [Check], _ results: () -> [CheckResult]) {
        if listing(checks) { return }
        report(results())
    }

    /// The same for checks that await.
    public static func run(_ checks: [Check], _ results: () async -> [CheckResult]) async {
        if listing(checks) { return }
        report(await results())
    }

    /// Prints the declarations when asked to: whether it did.
    static func listing(_ checks: [Check]) -> Bool {
        guard CommandLine.arguments.dropFirst().contains(listArgument) else { return false }
        let json = (try? JSONEncoder().encode(checks)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        FileHandle.standardOutput.write(Data((checksMarker + json + "\n").utf8))
        return true
    }

    /// The declarations in a `--list-checks` run's output, or nil when it printed none.
    public static func checks(in output: String) -> [Check]? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(checksMarker) }) else { return nil }
        return try? JSONDecoder().decode([Check].self, from: Data(line.dropFirst(checksMarker.count).utf8))
    }

    /// Prints the results for the runner (unbuffered, so a crash afterwards loses nothing).
    public static func report(_ results: [CheckResult]) {
        CheckTimelineRecorder.report()
        let json = (try? JSONEncoder().encode(results)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        FileHandle.standardOutput.write(Data((marker + json + "\n").utf8))
    }

    /// The results in a driver's output, or nil when it printed none (it crashed first).
    public static func results(in output: String) -> [CheckResult]? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return nil }
        return try? JSONDecoder().decode([CheckResult].self, from: Data(line.dropFirst(marker.count).utf8))
    }

    /// This program's own path.
    public static var executable: String { RunningProgram.path }

    /// The thread-sanitized build of this driver, or why there is none.
    public static var sanitizedBuild: Result<String, BuildFailure> {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[sanitizedBuildVariable], !path.isEmpty { return .success(path) }
        return .failure(BuildFailure(environment[sanitizedBuildErrorVariable] ?? "no sanitized build was made"))
    }

    public struct BuildFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}
