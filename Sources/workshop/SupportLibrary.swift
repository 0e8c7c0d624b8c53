import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// The ExerciseSupport library every check's driver links: `swift build` and `swift test`
/// build it, `swift run workshop` does not. Before a check, the CLI makes sure it is there and
/// no older than the package's sources and this program, and builds it quietly when it is not.
enum SupportLibrary {
    /// Set (to 1) by tests and CI that have built it already: a `swift test` run holds the
    /// build folder's lock, so a `swift build` started from inside it would wait forever.
    static let builtVariable = "WORKSHOP_SUPPORT_BUILT"

    /// Nil when the library is ready; otherwise a failed check that says why not.
    static func ensureBuilt(_ toolchain: Toolchain) -> CheckResult? {
        if ProcessInfo.processInfo.environment[builtVariable] == "1" || isCurrent(toolchain) { return nil }
        var arguments = ["build", "--product", "ExerciseSupport", "-c", toolchain.configuration]
        if toolchain.threadSanitizer { arguments.append("--sanitize=thread") }
        Style.warnLine(Style.dim("\(Text.buildingLibrary) swift \(arguments.joined(separator: " "))"))
        let build: Subprocess.Outcome
        do {
            build = try Subprocess.run(
                "swift", arguments, currentDirectory: toolchain.packageRoot.path, timeout: 1_800)
        } catch {
            return failure(localized(format: "could not run swift build: %@", "\(error)"))
        }
        guard build.succeeded else {
            let errors = (build.stdout + "\n" + build.stderr).split(separator: "\n")
                .filter { $0.contains(": error:") && !$0.hasPrefix(" ") }.prefix(3)
                .map { $0.replacingOccurrences(of: toolchain.packageRoot.path + "/", with: "") }
            return failure(errors.isEmpty ? build.describeEnd(timeout: 1_800) : errors.joined(separator: "\n"))
        }
        try? FileManager.default.createDirectory(
            at: stamp(toolchain).deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: stamp(toolchain).path, contents: Data())
        return nil
    }

    static func failure(_ got: String) -> CheckResult {
        CheckResult(
            name: "the checks' library builds", ja: localized("the checks' library builds", in: .ja), passed: false,
            expected: localized("swift build --product ExerciseSupport without errors"), got: got, hint: 0)
    }

    /// Written after a build of the library that changed nothing (SwiftPM then leaves the library's time alone).
    static func stamp(_ toolchain: Toolchain) -> URL {
        toolchain.binDirectory.appendingPathComponent("exercise-checks/library-built")
    }

    /// The library is built the way this program was (with or without the thread sanitizer),
    /// and it (or the last build of it) is newer than Package.swift and every Swift file of the
    /// targets in it (Sources/ExerciseChecks, WorkshopCore, the lessons' kits; not the programs).
    static func isCurrent(_ toolchain: Toolchain) -> Bool {
        guard toolchain.libraryMatches, let library = modified(toolchain.supportLibrary.path) else { return false }
        let built = max(library, modified(stamp(toolchain).path) ?? .distantPast)
        var inputs = [toolchain.packageRoot.appendingPathComponent("Package.swift").path]
        let sources = toolchain.packageRoot.appendingPathComponent("Sources")
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).filter {
            $0 == "ExerciseChecks" || $0 == "WorkshopCore" || ($0.hasPrefix("Lesson") && $0.hasSuffix("Kit"))
        }
        for folder in folders {
            guard let walker = FileManager.default.enumerator(atPath: sources.appendingPathComponent(folder).path)
            else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") {
                inputs.append(sources.appendingPathComponent(folder + "/" + file).path)
            }
        }
        return inputs.allSatisfy { (modified($0) ?? .distantPast) <= built }
    }

    static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
