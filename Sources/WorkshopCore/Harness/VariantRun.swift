import Foundation

/// One variant of a lesson, run to the end on the main thread, and what it measured.
///
/// `metrics` starts with the four every lesson reports (total time, first content, the main
/// thread's worst freeze, dropped frames); a lesson appends its own. `details` holds the
/// lesson's own results (the rows shown, the heights measured, ...) for its takeaway and tests.
public struct VariantRun<Details: Sendable>: Sendable {
    /// The name in the report: "no-thread", "threaded", or a lesson's own.
    public var name: String
    public var metrics: [(String, Metric)]
    /// Why the variant did not finish, in one sentence; nil when it did.
    public var failure: String?
    /// What ran where and when (printed as a timeline for people).
    public var trace: Trace
    /// What the Screen measured.
    public var screen: ScreenMetrics
    /// Where the Screen's time zero is on the trace's clock (the trace starts a little earlier).
    public var traceOffset: Double
    /// Extra lines printed for people after the variant (a lesson's own table, say).
    public var notes: [String]
    public var details: Details
    /// Whether the variant got as far as showing anything but "loading...": a run that
    /// failed before that has no figures worth a table.
    public var gotStarted: Bool

    public init(
        name: String, metrics: [(String, Metric)], failure: String?, trace: Trace, screen: ScreenMetrics,
        notes: [String] = [], details: Details, gotStarted: Bool = true, traceOffset: Double = 0
    ) {
        self.traceOffset = traceOffset
        self.name = name
        self.metrics = metrics
        self.failure = failure
        self.trace = trace
        self.screen = screen
        self.notes = notes
        self.details = details
        self.gotStarted = gotStarted
    }

    public subscript(metric: String) -> Metric? { metrics.first { $0.0 == metric }?.1 }

    /// A metric in seconds, or nil when the run has no such metric.
    public func seconds(_ metric: String) -> Double? {
        if case .seconds(let value)? = self[metric] { return value }
        return nil
    }

    /// A count (or bytes) metric, or nil when the run has no such metric.
    public func count(_ metric: String) -> Int? {
        switch self[metric] {
        case .count(let value)?, .bytes(let value)?: value
        default: nil
        }
    }

    /// What people see after a run: its notes and its timeline (a failure's cause is
    /// printed once, at the end, for every variant together).
    var humanSummary: String {
        var lines = notes
        if gotStarted, !trace.recorded.isEmpty {
            lines.append("\nWhere the time went (each lane is a thread or queue):\n" + trace.timeline())
        }
        return lines.joined(separator: "\n")
    }
}

extension VariantRun {
    /// Runs one variant the way every lesson does: the controller's Screen starts measuring
    /// frames, `start` runs on the main thread (a no-thread variant does all its work in it
    /// and returns at the end; a threaded one hands the work to other threads and returns at
    /// once), then the main run loop serves the main queue until `controller.isFinished`, or
    /// until `timeout` seconds have passed (then the run failed: "gave up after ...").
    ///
    /// - Returns: the run with the four common metrics; add the lesson's own to `metrics`.
    @MainActor
    public static func perform(
        _ name: String, controller: LessonController, timeout: Double, details: @autoclosure () -> Details,
        start: () -> Void
    ) -> VariantRun {
        let clock = Stopwatch()
        let traceOffset = controller.trace.elapsed
        controller.screen.start()
        start()
        let finished = MainLoop.run(timeout: timeout) { controller.isFinished }
        let total = clock.elapsed
        // An async variant that failed or ran out of time may still have requests in flight.
        controller.cancelTask()
        let measured = controller.screen.stop()
        var failure = controller.failure
        if !finished && failure == nil {
            failure = "gave up after \(timeout.formattedSeconds) s: \(controller.progress)"
        }
        let metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstContentSeconds ?? total)),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
        ]
        return VariantRun(
            name: name, metrics: metrics, failure: failure, trace: controller.trace, screen: measured,
            details: details(), gotStarted: controller.gotStarted, traceOffset: traceOffset)
    }
}

extension VariantRun {
    /// This run as a timeline picture's row: spans on the Screen's clock.
    public var pictureRun: TimelinePicture.Run {
        let spans = trace.recorded.map { span in
            Trace.Span(lane: span.lane, name: span.name, start: span.start - traceOffset, end: span.end - traceOffset)
        }
        return TimelinePicture.Run(
            name: name, spans: spans, stalls: screen.stalls, firstContentSeconds: screen.firstContentSeconds,
            doneSeconds: seconds("totalSeconds") ?? spans.map(\.end).max() ?? 0, droppedFrames: screen.droppedFrames,
            failure: failure)
    }
}
