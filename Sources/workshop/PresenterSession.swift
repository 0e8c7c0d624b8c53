import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One presentation of a lesson's demos: which step is on the screen, whether it has run,
/// and what each key does there.
struct PresenterSession {
    let lesson: Workspace.Lesson
    let demos: [LessonDemo]
    /// Flags added to every run (`--extra`).
    let extra: [String]
    let binary: String
    var index: Int

    enum Phase {
        /// The step's banner is up; the next key runs it.
        case shown
        /// It ran (or cannot run here); the next key goes on.
        case done
        /// After the last step: the next key ends the presentation.
        case end
    }

    /// How long to wait for a key while a lesson runs, between looks at whether it ended.
    static let runPoll = 0.1

    /// The run on the screen, if any: the signal handlers stop it. Locked: the main thread sets
    /// it, a signal's handler queue reads it.
    static let current = Locked<LiveRun?>(nil)

    mutating func run() {
        KeyInput.startCbreak()
        defer { KeyInput.restore() }
        let signals = PresenterSignals.install(current: Self.current)
        defer { withExtendedLifetime(signals) {} }
        var phase = Phase.shown
        show()
        while true {
            guard let key = KeyInput.next(timeout: nil) else { continue }
            switch (key, phase) {
            case (.quit, _), (.interrupt, _), (.next, .end):
                return
            case (.next, .shown) where !demos[index].needsOwnServer:
                phase = .done
                runStep()
            case (.next, _):
                phase = advance()
            case (.back, _):
                if index > 0 && phase != .end { index -= 1 }
                if index == 0 && phase == .shown { Style.line(Style.dim(Text.presentFirstStep)) } else { show() }
                phase = .shown
            case (.again, .done) where !demos[index].needsOwnServer:
                runStep()
            default:
                continue
            }
        }
    }

    /// The next step's banner, or after the last one the end: the phase that follows.
    mutating func advance() -> Phase {
        guard index + 1 < demos.count else {
            Style.line(Style.bold(Text.presentTheEnd(lesson.number)))
            Style.line(Style.dim(Text.presentKeysAtEnd))
            return .end
        }
        index += 1
        show()
        return .shown
    }

    /// The command as run: the quoted line and the `--extra` flags.
    var command: String { ([demos[index].command] + extra).joined(separator: " ") }

    func show() {
        let terminal = isatty(STDOUT_FILENO) == 1
        if terminal { FileHandle.standardOutput.write(Data("\u{1B}[H\u{1B}[2J".utf8)) }
        let demo = demos[index]
        for line in StepBanner.lines(
            lesson: lesson.title, step: index + 1, of: demos.count, demo: demo, command: command,
            width: Self.width)
        {
            Style.line(line)
        }
        if !extra.isEmpty { Style.line(Style.dim("  " + Text.presentExtra(extra.joined(separator: " ")))) }
        if demo.needsOwnServer {
            for line in StepBanner.wrap(Text.presentNeedsServer, width: Self.width - 2) { Style.line("  " + line) }
            Style.line()
            Style.line(Style.dim("  " + Text.presentKeysSkipped))
        } else {
            Style.line(Style.dim("  " + Text.presentKeysBeforeRun))
        }
    }

    /// Runs the step's command with its output live, then shows its takeaway. `q` or Ctrl-C
    /// stops it and stays on the step.
    func runStep() {
        Style.line(Style.dim(Text.presentKeysDuringRun))
        Style.line()
        let run = LiveRun(binary, demos[index].arguments + extra, columns: Self.width)
        Self.current.withLock { $0 = run }
        var end: LiveRun.End?
        while end == nil {
            end = run.wait(timeout: Self.runPoll)
            // Lines from a pipe are for the steps after this one (a script sends them all at
            // once); there, only a signal (Ctrl-C) stops the run.
            if end == nil, KeyInput.isTerminal, let key = KeyInput.next(timeout: 0), key == .quit || key == .interrupt {
                end = run.stop()
            }
        }
        Self.current.withLock { $0 = nil }
        // A program stopped mid-draw may leave its colour on and the cursor hidden.
        if isatty(STDOUT_FILENO) == 1 { FileHandle.standardOutput.write(Data("\u{1B}[0m\u{1B}[?25h".utf8)) }
        let takeaway: String
        switch end {
        case .exited(0): takeaway = run.lastParagraph
        case .exited(let status): takeaway = Text.presentEnded(Text.exitStatus(status))
        case .signaled(let number): takeaway = Text.presentEnded(localized(format: "signal %d", Int(number)))
        case .couldNotStart(let why): takeaway = Text.presentEnded(why)
        case .stopped, nil: takeaway = Text.presentStopped
        }
        Style.line()
        for line in StepBanner.box(Text.presentTakeaway, takeaway, width: Self.width) { Style.line(line) }
        Style.line(Style.dim("  " + Text.presentKeysAfterRun))
    }

    /// The width to draw in: the terminal's, at most a projector-friendly 100 columns.
    static var width: Int { terminalColumns().map { min(100, max(40, $0)) } ?? 100 }
}
