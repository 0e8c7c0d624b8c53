import ArgumentParser
import ExerciseChecks
import Foundation

/// `workshop watch`: checks the current exercise whenever its files change, and moves on
/// when it passes. Polls file times (portable; no file-watching API needed).
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the current exercise whenever its files change; move on when it passes. Ctrl-C stops.")

    @Option(help: ArgumentHelp("Stop after this many seconds (0 = until Ctrl-C).", valueName: "seconds"))
    var maxSeconds: Double = 0

    @Option(help: ArgumentHelp("How often to look at the files, in seconds (0.1-10).", valueName: "seconds"))
    var interval: Double = 0.5

    @Flag(help: "Check the current exercise once and stop (exit code 0 when it passes).")
    var once = false

    @Flag(help: "Do not rebuild the workshop when a file changes.")
    var noBuild = false

    func validate() throws {
        guard maxSeconds >= 0 else { throw ValidationError("--max-seconds must be 0 or more (got \(maxSeconds))") }
        guard (0.1...10).contains(interval) else { throw ValidationError("--interval must be between 0.1 and 10 (got \(interval))") }
    }

    func run() throws {
        let workspace = Workspace.locate()
        let runner = CheckRunner(workspace: workspace, rebuild: !noBuild)
        let deadline = maxSeconds > 0 ? Date(timeIntervalSinceNow: maxSeconds) : .distantFuture

        guard var current = workspace.current(progress: .load(workspace.progressFile))?.suite else {
            Style.line(List.next(nil))
            return
        }
        if once {
            if !Check.checkAndReport(current, runner: runner) { throw ExitCode(1) }
            return
        }
        var seen = snapshot(current, runner)
        _ = Check.checkAndReport(current, runner: runner)
        announce(current)
        while Date() < deadline {
            // Waiting for the learner to save: a poll of file times, not a wait on another thread.
            Thread.sleep(forTimeInterval: interval)
            let now = snapshot(current, runner)
            guard now != seen else { continue }
            seen = now
            Style.line()
            Style.line(Style.dim("Changed: \(current.exerciseFile). Checking again..."))
            guard Check.checkAndReport(current, runner: runner) else {
                announce(current)
                continue
            }
            guard let next = workspace.current(progress: .load(workspace.progressFile))?.suite else {
                Style.line()
                Style.line(List.next(nil))
                return
            }
            current = next
            seen = snapshot(current, runner)
            Style.line()
            Style.line(List.next(workspace.exercise(current, progress: .load(workspace.progressFile))))
            announce(current)
        }
        Style.line(Style.dim("Stopped after \(maxSeconds) s (--max-seconds)."))
    }

    func announce(_ suite: any ExerciseCheckSuite.Type) {
        Style.line(Style.dim("Watching \(suite.directory)/ for changes (Ctrl-C to stop)..."))
    }

    /// Modification time and size of each Swift file of the exercise.
    func snapshot(_ suite: any ExerciseCheckSuite.Type, _ runner: CheckRunner) -> [String: String] {
        var files: [String: String] = [:]
        for path in runner.sourceFiles(suite) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[path] = "\(time) \(attributes?[.size] as? Int ?? -1)"
        }
        return files
    }
}
