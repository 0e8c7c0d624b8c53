import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop watch [NN]`: checks an exercise whenever its files change, and moves on to the
/// next one not done when it passes. Polls file times (portable; no file-watching API needed).
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Check an exercise (default: the current one) whenever you save; move on when it passes. Ctrl-C stops.")
    )

    @OptionGroup var choice: ExerciseChoice

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(localized("Stop after this many seconds (0 = until Ctrl-C)."), valueName: "seconds"))
    var maxSeconds: Double = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(localized("How often to look at the files, in seconds (0.1-10)."), valueName: "seconds"))
    var interval: Double = 0.5

    @Flag(help: ArgumentHelp(localized("Check the exercise once and stop (exit code 0 when it passes).")))
    var once = false

    @Flag(help: ArgumentHelp(localized("Do not build the checks' library first.")))
    var noBuild = false

    @OptionGroup var limits: CheckLimits
    @OptionGroup var language: LanguageOption

    func validate() throws {
        guard maxSeconds >= 0 else {
            throw ValidationError(localized(format: "--max-seconds must be 0 or more (got %@)", "\(maxSeconds)"))
        }
        guard (0.1...10).contains(interval) else {
            throw ValidationError(localized(format: "--interval must be between 0.1 and 10 (got %@)", "\(interval)"))
        }
    }

    func run() throws {
        var workspace = Workspace.locate()
        let deadline = maxSeconds > 0 ? Date(timeIntervalSinceNow: maxSeconds) : .distantFuture
        guard var current = choice.meant(in: &workspace) else { return }
        workspace.setCurrent(current.id)
        var buildLibrary = !noBuild  // once is enough
        func check(_ exercise: Exercise) -> Bool {
            defer { buildLibrary = false }
            return Check.checkAndReport(exercise, in: workspace, buildLibrary: buildLibrary, limits: limits)
        }
        if once {
            if !check(current) { throw ExitCode(1) }
            return
        }
        var seen = snapshot(current, workspace)
        _ = check(current)
        announce(current)
        while Date() < deadline {
            // Waiting for the learner to save: a poll of file times, not a wait on another thread.
            Thread.sleep(forTimeInterval: interval)
            let now = snapshot(current, workspace)
            guard now != seen else { continue }
            seen = now
            Style.line()
            Style.line(
                Style.dim(
                    localized(
                        format: "Changed: %@. Checking again...", workspace.locations(current).joined(separator: ", ")))
            )
            guard check(current) else {
                announce(current)
                continue
            }
            guard let next = workspace.next(after: current, progress: workspace.progress()) else {
                Style.line()
                Style.line(List.next(nil))
                return
            }
            current = next
            workspace.setCurrent(current.id)
            seen = snapshot(current, workspace)
            Style.line()
            Style.line(List.next(workspace.state(current, progress: workspace.progress())))
            announce(current)
        }
        Style.line(Style.dim(localized(format: "Stopped after %@ s (--max-seconds).", "\(maxSeconds)")))
    }

    func announce(_ exercise: Exercise) {
        Style.line(Style.dim(localized(format: "Watching %@/ for changes (Ctrl-C to stop)...", exercise.directory)))
    }

    /// Modification time and size of each of the exercise's files.
    func snapshot(_ exercise: Exercise, _ workspace: Workspace) -> [String: String] {
        var files: [String: String] = [:]
        for path in exercise.paths.map(workspace.path) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[path] = "\(time) \(attributes?[.size] as? Int ?? -1)"
        }
        return files
    }
}
