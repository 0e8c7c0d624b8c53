import Foundation
import WorkshopCore

/// Every exercise the `workshop` CLI knows, in one list. Adding an exercise is one line here
/// (`ExerciseNNChecks.self,`). The CLI reads everything else (title, folder, file, hints.md,
/// README.md) from the suite, and shows the exercises in the order of their ids: the lesson
/// numbers "01"..."07" first, then the exercises tied to no lesson ("R1": R for race, and a
/// letter so it can never be mistaken for a lesson number).
public enum ExerciseCatalog {
    public static var suites: [any ExerciseCheckSuite.Type] {
        [
            Exercise01Checks.self,
            Exercise02Checks.self,
            Exercise03Checks.self,
            Exercise04Checks.self,
            Exercise05Checks.self,
            Exercise06Checks.self,
            Exercise07Checks.self,
            ExerciseR1Checks.self,
        ].sorted { $0.id < $1.id }  // "01"..."07" first, then the ones not tied to a lesson ("R1")
    }

    /// The suite whose id is `id`, ignoring case and a missing leading zero ("3" finds "03").
    public static func suite(id: String) -> (any ExerciseCheckSuite.Type)? {
        let wanted = id.count == 1 && id.allSatisfy(\.isNumber) ? "0" + id : id
        return suites.first { $0.id.lowercased() == wanted.lowercased() }
    }
}

/// An exercise whose checks compile the learner's file themselves (in a child process)
/// instead of running the copy compiled into this program. The CLI need not rebuild itself
/// for them, and can check them against any folder, and their reference solution can be
/// checked by path.
public protocol ChecksCompileTheFile: ExerciseCheckSuite {
    /// The reference solution, relative to the package root.
    static var referenceFile: String { get }
    /// Runs every check against the Swift file at `path`.
    static func run(file path: String) -> [CheckResult]
}

/// Where the exercises are: `WORKSHOP_ROOT` when set (the CLI sets it for its child process;
/// tests point it at a copy), else the package this module was built from.
public enum ExerciseRoot {
    public static var current: URL {
        if let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        return builtFrom
    }

    /// The package root this module was compiled from.
    public static let builtFrom = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

extension ShippedFile {
    /// The fingerprint of bytes in memory (e.g. a version from git), as `fingerprint(of:)` gives for a file.
    public static func fingerprint(of data: Data) -> String { fnv1a(Array(data)) }
}

extension CheckResult {
    /// A result made outside this module (the CLI reports a crash or a failed build as one).
    public static func make(name: String, passed: Bool, expected: String, got: String, hint: Int) -> CheckResult {
        CheckResult(name: name, passed: passed, expected: expected, got: got, hint: hint)
    }
}
