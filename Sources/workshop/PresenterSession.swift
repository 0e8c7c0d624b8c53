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
    /// Flags added to every run: `--lang` when the presenter was given one, then `--extra`'s.
    let added: [String]
    /// `--extra`'s flags alone, for the line that says every run adds them.
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
            keys(Text.presentKeysAtEnd)
            return .end
        }
        index += 1
        show()
        return .shown
    }

    /// The step's banner, from the top of a cleared screen. On a terminal the output of its run
    /// then scrolls below it (`ScrollRegion`), and the banner's last line tells the keys.
    func show() {
        let terminal = isatty(STDOUT_FILENO) == 1
        if terminal {
            ScrollRegion.reset()
            FileHandle.standardOutput.write(Data("\u{1B}[H\u{1B}[2J".utf8))
        }
        let demo = demos[index]
        var lines = StepBanner.lines(
            lesson: lesson.title, step: index + 1, of: demos.count, demo: demo, added: added, width: Self.width)
        if !extra.isEmpty {
            lines += StepBanner.wrap(Text.presentExtra(extra.joined(separator: " ")), width: Self.width - 2).map {
                Style.dim("  " + $0)
            }
        }
        if demo.needsOwnServer {
            lines += StepBanner.wrap(Text.presentNeedsServer, width: Self.width - 2).map { "  " + $0 }
            lines.append("")
            // No run: the step's takeaway comes with its banner.
            if !demo.takeaway.isEmpty {
                lines += StepBanner.box(Text.presentTakeaway, demo.takeaway, width: Self.width) + [""]
            }
        }
        lines.append(Self.keysLine(demo.needsOwnServer ? Text.presentKeysSkipped : Text.presentKeysBeforeRun))
        for line in lines { Style.line(line) }
        if terminal { ScrollRegion.start(bannerRows: Self.rows(lines)) }
    }

    /// The keys' line: on the banner's last row when the output scrolls below it, else a new line.
    func keys(_ text: String) {
        let line = Self.keysLine(text)
        if !ScrollRegion.keys(line) { Style.line(line) }
    }

    static func keysLine(_ text: String) -> String {
        Style.dim(truncate("  " + text, toWidth: max(20, (terminalColumns() ?? width) - 1)))
    }

    /// How many rows `lines` take on the terminal (a line wider than it takes more than one).
    static func rows(_ lines: [String]) -> Int {
        let columns = max(1, terminalColumns() ?? width)
        return lines.reduce(0) { rows, line in
            let visible = line.replacingOccurrences(
                of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
            return rows + max(1, (terminalWidth(visible) + columns - 1) / columns)
        }
    }

    /// Runs the step's commands (the lesson's lines of its section), one after the other, with
    /// their output live below the banner, then shows the step's takeaway: the one its section
    /// in the text gives (the programs then leave theirs out, `--no-takeaway`), or, for a section
    /// without one, the program's own, as it printed it. `q` or Ctrl-C stops the run and stays
    /// on the step.
    func runStep() {
        let demo = demos[index]
        ScrollRegion.clearOutput()
        keys(Text.presentKeysDuringRun)
        if !ScrollRegion.isSet { Style.line() }
        let runs = demo.runs
        var stopped = false
        for command in runs {
            // Two runs in one step: each says which it is.
            if runs.count > 1 { Style.line(Style.dim("$ " + ([command.text] + added).joined(separator: " "))) }
            let arguments = command.arguments + (demo.takeaway.isEmpty ? [] : ["--no-takeaway"]) + added
            let end = Self.watch(LiveRun(binary, arguments, columns: Self.width))
            // A program stopped mid-draw may leave its colour on and the cursor hidden.
            if isatty(STDOUT_FILENO) == 1 { FileHandle.standardOutput.write(Data("\u{1B}[0m\u{1B}[?25h".utf8)) }
            switch end {
            case .exited(0): continue
            case .exited(let status): Style.line(Style.dim(Text.presentEnded(Text.exitStatus(status))))
            case .signaled(let number):
                Style.line(Style.dim(Text.presentEnded(localized(format: "signal %d", Int(number)))))
            case .couldNotStart(let why): Style.line(Style.dim(Text.presentEnded(why)))
            case .stopped: stopped = true
            }
            if stopped { break }
        }
        Style.line()
        if stopped {
            Style.line(Text.presentStopped)
        } else if !demo.takeaway.isEmpty {
            for line in StepBanner.box(Text.presentTakeaway, demo.takeaway, width: Self.width) { Style.line(line) }
        }
        keys(Text.presentKeysAfterRun)
    }

    /// Waits for `run` to end, with its output live; `q` or Ctrl-C (a key on a terminal, or the
    /// signal) stops it.
    static func watch(_ run: LiveRun) -> LiveRun.End {
        current.withLock { $0 = run }
        defer { current.withLock { $0 = nil } }
        var end: LiveRun.End?
        while end == nil {
            end = run.wait(timeout: runPoll)
            // Lines from a pipe are for the steps after this one (a script sends them all at
            // once); there, only a signal (Ctrl-C) stops the run.
            if end == nil, KeyInput.isTerminal, let key = KeyInput.next(timeout: 0), key == .quit || key == .interrupt {
                end = run.stop()
            }
        }
        return end ?? .stopped
    }

    /// The width to draw in: the terminal's, at most a projector-friendly 100 columns.
    static var width: Int { terminalColumns().map { min(100, max(40, $0)) } ?? 100 }
}
