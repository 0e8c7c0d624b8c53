import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// The ExerciseSupport library every check's driver links: `swift build` and `swift test`
/// build it, `swift run workshop` does not. Before a check, the CLI makes sure it is there,
/// built the way this program is, and not older than what it is built from (the rule
/// `workshop present` applies to a lesson's program: `ProductFreshness`), and builds it
/// quietly when it is not.
enum SupportLibrary {
    static let product = Toolchain.supportProduct

    /// Set (to 1) by tests and CI that have built it already: a `swift test` run holds the
    /// build folder's lock, so a `swift build` started from inside it would wait forever.
    static let builtVariable = "WORKSHOP_SUPPORT_BUILT"

    /// Nil when the library is ready; otherwise a failed check that says why not.
    static func ensureBuilt(_ toolchain: Toolchain) -> CheckResult? {
        if ProcessInfo.processInfo.environment[builtVariable] == "1" || isCurrent(toolchain) { return nil }
        var arguments = ["build", "--product", product, "-c", toolchain.configuration]
        if toolchain.threadSanitizer { arguments.append("--sanitize=thread") }
        Style.warnLine(Style.dim("\(Text.buildingLibrary) swift \(arguments.joined(separator: " "))"))
        let build: Subprocess.Outcome
        let started = Date()
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
        ProductFreshness.recordBuild(of: product, startedAt: started, binDirectory: toolchain.binDirectory)
        return nil
    }

    static func failure(_ got: String) -> CheckResult {
        CheckResult(
            name: "the checks' library builds", ja: localized("the checks' library builds", in: .ja), passed: false,
            expected: localized("swift build --product ExerciseSupport without errors"), got: got, hint: 0)
    }

    /// The library is built the way this program was (with or without the thread sanitizer),
    /// and no file it is built from (the manifest, the sources of every module it links:
    /// ExerciseChecks, WorkshopCore, WorkshopServer, the lessons' kits, and SwiftPM's list says
    /// which) changed after the last build that read it.
    static func isCurrent(_ toolchain: Toolchain) -> Bool {
        toolchain.libraryMatches
            && ProductFreshness.newerSource(
                than: toolchain.supportLibrary, product: product, binDirectory: toolchain.binDirectory,
                packageRoot: toolchain.packageRoot) == nil
    }
}
