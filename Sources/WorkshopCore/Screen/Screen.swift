import Foundation

/// What the Screen measured while it was up.
public struct ScreenMetrics: Sendable, Equatable {
    /// The longest time the main thread did not get to draw a frame.
    public var maxStallSeconds: Double
    /// Frames (16 ms each) that passed without a draw.
    public var droppedFrames: Int
    /// When the first frame with anything on it was drawn (nil: never).
    public var firstContentSeconds: Double?
    /// When the first frame showing table rows was drawn.
    public var firstRowsSeconds: Double?
    /// When the first frame showing every row with its icon was drawn.
    public var completeSeconds: Double?
    public var frames: Int
    /// When the main thread froze long enough to drop a frame: seconds since the Screen started.
    public var stalls: [Stall] = []
}

extension ScreenMetrics {
    /// Apple's words for a freeze (Xcode Organizer, Instruments): a *hang* is a main thread
    /// unresponsive for 250 ms or more; a *hitch* is a frame shown late, and the hitch rate is
    /// the milliseconds of lateness per second of the run (under 5 good, 5-10 fair, over 10 poor).
    public static let hangSeconds = 0.25

    /// Hangs (count and total seconds) and the hitch rate, as `--json` reports them.
    public func appleFigures(runSeconds: Double, frameSeconds: Double = 0.016) -> [(MetricName, Metric)] {
        let hangs = stalls.filter { $0.seconds >= Self.hangSeconds }
        let hitchSeconds = stalls.reduce(0) { $0 + max(0, $1.seconds - frameSeconds) }
        return [
            (.hangs, .count(hangs.count)),
            (.hangSeconds, .seconds(hangs.reduce(0) { $0 + $1.seconds })),
            (.hitchRateMsPerSecond, .msPerSecond(runSeconds > 0 ? 1000 * hitchSeconds / runSeconds : 0)),
        ]
    }
}

/// One freeze of the main thread, in seconds since the Screen started.
public struct Stall: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var seconds: Double { end - start }

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// The workshop's "UI": a title, a status line and a `TableView`, drawn to the terminal
/// once per frame from the main queue, with a `StallMeter` counting how late each frame was.
///
/// Like UIKit, it may be touched only on the main queue: every entry point calls
/// `requireMainQueue()`, which stops the program when called from anywhere else. On Linux the
/// failed `dispatchPrecondition` prints no message of its own: the process dies of SIGILL
/// ("Illegal instruction"), and only the backtrace, if one is printed, shows
/// `_dispatch_assert_queue_fail` under the Screen call that was made off the main queue.
/// Nothing here is drawn at the moment it changes: changes are drawn at the next frame,
/// and a busy main thread means no frame, which is the whole point of the lessons.
public final class Screen {
    public let title: String
    public let table = TableView()
    public var status = "" {
        didSet {
            requireMainQueue()
            note(.status(status))
        }
    }
    /// Called on the main queue after every change (tests and exercise checks watch with it).
    public var onChange: ((String) -> Void)?

    private let output: ScreenOutput
    private var meter: StallMeter!
    private var clock = Stopwatch()
    private var firstContentSeconds: Double?
    private var firstRowsSeconds: Double?
    private var completeSeconds: Double?
    private var pendingEvents: [ScreenEvent] = []
    private var dirty = true
    private var linesOnTerminal = 0
    /// When rows changed (seconds since `start()`) and how many: what was shown when.
    private var rowChanges: [(seconds: Double, rows: Int)] = []
    private let columns: Int

    public init(title: String, output: ScreenOutput) {
        self.title = title
        self.output = output
        self.columns = max(40, Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 100)
        table.onChange = { [unowned self] event in note(event) }
        table.onRowsChanged = { [unowned self] rows in rowChanges.append((clock.elapsed, rows)) }
        meter = StallMeter { [unowned self] in drawFrame() }
    }

    /// Starts the frame clock. Call on the main queue before the work begins.
    public func start() {
        requireMainQueue()
        clock = Stopwatch()
        rowChanges.removeAll()
        meter.start()
    }

    /// Draws what changed since the last frame, now. The harness calls it when a run's work is
    /// done, before it reads the run's total: what a busy main thread never got to draw (all of a
    /// no-thread run's rows) is on screen within the run, and its first-content time with it.
    public func drawPending() {
        requireMainQueue()
        drawFrame()
    }

    /// Stops the frame clock and draws the final state.
    public func stop() -> ScreenMetrics {
        requireMainQueue()
        meter.stop()
        drawFrame()
        return ScreenMetrics(
            maxStallSeconds: meter.maxStallSeconds, droppedFrames: meter.droppedFrames,
            firstContentSeconds: firstContentSeconds, firstRowsSeconds: firstRowsSeconds,
            completeSeconds: completeSeconds, frames: meter.ticks,
            stalls: meter.stalls.map { Stall(start: clock.offset(of: $0.start), end: clock.offset(of: $0.end)) })
    }

    private func note(_ event: ScreenEvent) {
        dirty = true
        pendingEvents.append(event)
        onChange?(event.description)
    }

    private var hasContent: Bool { !table.rows.isEmpty || table.placeholder != nil }

    private func drawFrame() {
        guard dirty else { return }
        dirty = false
        let now = clock.elapsed
        if firstContentSeconds == nil && hasContent { firstContentSeconds = now }
        if firstRowsSeconds == nil && !table.rows.isEmpty { firstRowsSeconds = now }
        if completeSeconds == nil && !table.rows.isEmpty && table.rows.allSatisfy({ $0.icon != nil }) {
            completeSeconds = now
        }
        let events = pendingEvents
        pendingEvents.removeAll()
        switch output {
        case .silent:
            break
        case .plain:
            say(String(format: "  %7.3f s  ", now) + Self.summarize(events))
        case .terminal(let color):
            let lines = render(color: color)
            var text = ANSI.up(linesOnTerminal) + ANSI.clearToEnd
            text += lines.joined(separator: "\n") + "\n"
            FileHandle.standardOutput.write(Data(text.utf8))
            linesOnTerminal = lines.count
        }
    }

    /// One frame's changes in one line, in the program's language: "reload: 20 rows; icons:
    /// rows 1-20" (in Japanese 「再読み込み: 20 行; アイコン: 1-20 行目」).
    static func summarize(_ events: [ScreenEvent]) -> String {
        var parts: [String] = []
        var iconRows: [Int] = []
        func flushIcons() {
            guard let first = iconRows.first, let last = iconRows.last else { return }
            parts.append(
                iconRows.count == 1
                    ? ScreenEvent.icon(row: first).shown : localized(format: "icons: rows %1$d-%2$d", first, last))
            iconRows.removeAll()
        }
        for event in events {
            if case .icon(let row) = event {
                if let last = iconRows.last, last + 1 != row { flushIcons() }
                iconRows.append(row)
            } else {
                flushIcons()
                parts.append(event.shown)
            }
        }
        flushIcons()
        return parts.joined(separator: "; ")
    }

    /// The lines of one frame on a terminal.
    func render(color: Bool) -> [String] {
        var lines = [ANSI.bold(title, color) + ANSI.dim(String(format: "   %.2f s", clock.elapsed), color)]
        if table.rows.isEmpty {
            lines.append(ANSI.dim("  " + (table.placeholder ?? ""), color))
        }
        for index in table.visibleRows {
            let row = table.rows[index]
            let icon =
                row.icon.map { bytes in "[" + String(format: "%02x", bytes.count > 8 ? bytes[8] : 0) + "]" } ?? "[..]"
            let name = row.detail.padding(toLength: 8, withPad: " ", startingAt: 0)
            let line = String(format: "%3d ", index + 1) + icon + " " + name + " " + row.text
            lines.append(truncate(line, toWidth: columns - 1))
        }
        if !status.isEmpty { lines.append(ANSI.dim(status, color)) }
        return lines
    }

    /// Rows shown or changed at `seconds` (since `start()`) or later: what reached the user
    /// after a cancel.
    public func rowsChanged(since seconds: Double) -> Int {
        requireMainQueue()
        return rowChanges.filter { $0.seconds >= seconds }.reduce(0) { $0 + $1.rows }
    }

    /// Seconds since `start()`.
    public var elapsed: Double { clock.elapsed }
}

/// One change on the Screen, as the app's user sees it. `description` is the English words
/// (what `onChange` hands tests and checks: an identity, like a check's English name);
/// `shown` is what the Screen prints, in the program's language: the simulated app speaks its
/// user's language, as an app's UI would.
public enum ScreenEvent: Sendable, Equatable, CustomStringConvertible {
    case placeholder(String?)
    case reload(rows: Int)
    case scroll(first: Int, last: Int)
    case icon(row: Int)
    case status(String)

    public var description: String { text(in: .en) }

    /// In the program's language.
    public var shown: String { text(in: Localized.language) }

    func text(in language: Language) -> String {
        func say(_ english: String, _ arguments: any CVarArg...) -> String {
            String(format: localized(english, in: language), locale: nil, arguments: arguments)
        }
        switch self {
        case .placeholder(let text): return say("placeholder: %@", text ?? "-")
        case .reload(let rows): return say(rows == 1 ? "reload: %d row" : "reload: %d rows", rows)
        case .scroll(let first, let last): return say("scroll: rows %1$d-%2$d", first, last)
        case .icon(let row): return say("icon: row %d", row)
        case .status(let status): return say("status: %@", status)
        }
    }
}
