import Foundation

/// One variant of a lesson, run to the end on the main thread, and what it measured.
///
/// `metrics` starts with the four every lesson reports (total time, first content, the main
/// thread's worst freeze, dropped frames); a lesson appends its own. `details` holds the
/// lesson's own results (the rows shown, the heights measured, ...) for its takeaway and tests.
public struct VariantRun<Details: Sendable>: Sendable {
    /// The name in the report: "no-thread", "threaded", or a lesson's own.
    public var name: String
    public var metrics: [(MetricName, Metric)]
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
        name: String, metrics: [(MetricName, Metric)], failure: String?, trace: Trace, screen: ScreenMetrics,
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

    public subscript(metric: MetricName) -> Metric? { metrics.first { $0.0 == metric }?.1 }

    /// A metric in seconds, or nil when the run has no such metric.
    public func seconds(_ metric: MetricName) -> Double? {
        if case .seconds(let value)? = self[metric] { return value }
        return nil
    }

    /// A count (or bytes) metric, or nil when the run has no such metric.
    public func count(_ metric: MetricName) -> Int? {
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
            lines.append(
                "\n" + localized("Where the time went (each lane is a thread or queue):") + "\n" + trace.timeline())
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
    /// With `cancelAfter`, the user taps Cancel that many seconds in: a main-queue event, so a
    /// busy main thread handles it late (`LessonController.isCancelled`). However the run ends,
    /// the harness then stops the variant's work and **waits until it has stopped** before
    /// anything is torn down, serves the main queue once more so that results already queued
    /// for main land now (or never), and counts what reached the server and the Screen after
    /// the cancel: `requestsAfterCancel` (our server only) and `rowsAfterCancel`. More than
    /// `requestsAtOnce` requests (what the variant sends together, already on their way at the
    /// tap), or any row, after the cancel fails the run.
    ///
    /// - Returns: the run with the common metrics; add the lesson's own to `metrics`.
    @MainActor
    public static func perform(
        _ name: String, controller: LessonController, timeout: Double, cancelAfter: Double? = nil,
        endpoint: (any RequestLedger)? = nil, requestsAtOnce: Int = 1, details: @autoclosure () -> Details,
        start: () -> Void
    ) -> VariantRun {
        let clock = Stopwatch()
        let traceOffset = controller.trace.elapsed
        controller.cancelAt = cancelAfter
        controller.screen.start()
        let screenStarted = monotonicSeconds()
        if let cancelAfter {
            // The tap is an event on the main queue, like a touch: it waits for a busy main thread.
            DispatchQueue.main.asyncAfter(deadline: .now() + cancelAfter) {
                MainActor.assumeIsolated { controller.cancel() }
            }
        }
        start()
        let finished = MainLoop.run(timeout: timeout) { controller.isFinished }
        // The frame that shows the end is part of the run: drawn before the total is read, so the
        // first content (measured when drawn, on the Screen's clock, which starts after `clock`)
        // is never later than the total.
        controller.screen.drawPending()
        let total = clock.elapsed
        let ending = WorkEnding.wait(for: controller)
        let measured = controller.screen.stop()

        var failure = controller.failure
        if !finished && failure == nil {
            failure = localized(format: "gave up after %1$@ s: %2$@", timeout.formattedSeconds, controller.progress)
        }
        var metrics: [(MetricName, Metric)] =
            [
                (.totalSeconds, .seconds(total)),
                // Content that came as the run finished is first drawn by `stop()`'s last frame,
                // a moment after `total`: it was on the Screen when the run ended.
                (.firstContentSeconds, .seconds(min(measured.firstContentSeconds ?? total, total))),
                (.mainThreadMaxStallSeconds, .seconds(measured.maxStallSeconds)),
                (.droppedFrames, .count(measured.droppedFrames)),
            ] + measured.appleFigures(runSeconds: total)
        var notes: [String] = []
        if !ending.stopped {
            failure =
                failure
                ?? localized(
                    format: "its work was still running %@ s after the run ended", WorkEnding.limit.formattedSeconds)
        }
        if let cancelAfter {
            // Work that did not say it was still running (a block nobody counted, a request
            // nobody cancelled) shows up now: the main loop keeps turning for a while, and the
            // server and the Screen keep counting. Evidence, not the variant's word.
            let window = CancelOutcome.watchSeconds + 2 * (endpoint?.latencySeconds ?? 0)
            MainLoop.run(timeout: window) { false }
            // Counted from the moment the app handled the tap, as a user sees it: the tap is an
            // event, handled when the main thread gets to it (a no-thread variant, between two
            // blocking calls; the others at once, or after the main-actor work already queued).
            // A run that ended before handling it has nothing after it.
            let handled = controller.cancelHandledAt
            let after = CancelOutcome(
                cancelAt: cancelAfter, handledAt: handled, stoppedAt: ending.stoppedAt - screenStarted,
                requests: handled.flatMap { endpoint?.requestsReceived(since: screenStarted + $0) },
                rows: handled.map { controller.screen.rowsChanged(since: $0) } ?? 0, requestsAtOnce: requestsAtOnce)
            metrics += after.metrics
            notes.append(after.summary)
            if failure == nil, let late = after.lateWork { failure = late }
        }
        return VariantRun(
            name: name, metrics: metrics, failure: failure, trace: controller.trace, screen: measured,
            notes: notes, details: details(), gotStarted: controller.gotStarted, traceOffset: traceOffset)
    }
}

/// How a run's work ended: the harness stops it and waits for it, then lets the main queue
/// deliver what was already queued for it.
@MainActor
enum WorkEnding {
    /// Seconds the harness waits for stopped work to end before it says so.
    static let limit = 5.0

    /// Stops `controller`'s work and waits (up to `limit`) until nothing of it runs; then serves
    /// the main queue up to a block queued behind everything already there (the main queue is
    /// FIFO), so a result queued for main before the end is shown now or never.
    static func wait(for controller: LessonController) -> (stopped: Bool, stoppedAt: Double) {
        controller.stopWork()
        let stopped = MainLoop.run(timeout: limit) { !controller.isWorkRunning }
        let stoppedAt = monotonicSeconds()
        let served = Locked(false)
        DispatchQueue.main.async { served.withLock { $0 = true } }
        MainLoop.run(timeout: limit) { served.current }
        return (stopped, stoppedAt)
    }
}

/// What happened after the user's Cancel, in the run's figures.
struct CancelOutcome {
    /// Seconds the harness keeps watching after the work says it has stopped (plus two
    /// latencies of the link): long enough for a request or a row nobody stopped to show up.
    static let watchSeconds = 0.5

    /// When the user tapped Cancel, seconds since the Screen started.
    var cancelAt: Double
    /// When the main thread handled it (nil: the run had ended before).
    var handledAt: Double?
    /// When the variant's work had stopped, seconds since the Screen started.
    var stoppedAt: Double
    /// Requests our server received after the tap was handled (nil: not our server, not counted).
    var requests: Int?
    /// Rows shown or changed on the Screen after the tap was handled.
    var rows: Int
    /// Requests the variant sends together (lesson 04's round of three): that many may have
    /// been started before the tap and still reach the server after it. 1 for one at a time.
    var requestsAtOnce = 1

    var metrics: [(MetricName, Metric)] {
        var metrics: [(MetricName, Metric)] = [(.cancelAtSeconds, .seconds(cancelAt))]
        if let handledAt {
            metrics.append((.cancelHandledSeconds, .seconds(handledAt)))
            metrics.append((.stoppedAfterCancelSeconds, .seconds(max(0, stoppedAt - cancelAt))))
        }
        if let requests { metrics.append((.requestsAfterCancel, .count(requests))) }
        metrics.append((.rowsAfterCancel, .count(rows)))
        return metrics
    }

    /// "cancelled at 0.30 s, handled at once, stopped 0.01 s later; after the cancel: 0 requests, 0 rows"
    var summary: String {
        guard let handledAt else {
            return localized(format: "finished before the cancel at %@ s: nothing to cancel", cancelAt.formattedSeconds)
        }
        let handled =
            handledAt - cancelAt < 0.02
            ? localized("handled at once")
            : localized(
                format: "handled %@ s later (the main thread was busy)", String(format: "%.2f", handledAt - cancelAt))
        let stopped = localized(
            format: "work stopped %@ s after the tap", String(format: "%.2f", max(0, stoppedAt - cancelAt)))
        let requestsText = requests.map(countedRequests) ?? localized("requests not counted (not our server)")
        return localized(
            format: "cancelled at %1$@ s, %2$@, %3$@; after the cancel: %4$@, %5$@", cancelAt.formattedSeconds, handled,
            stopped, requestsText, countedRows(rows))
    }

    /// The run's failure when something happened after the cancel that a cancel promises not
    /// to happen: a row shown, or more requests than the variant sends at once (those may
    /// already have been on their way when the tap came).
    var lateWork: String? {
        var late: [String] = []
        if let requests, requests > requestsAtOnce {
            late.append(
                localized(
                    format: requests == 1 ? "%d request reached the server" : "%d requests reached the server", requests
                ))
        }
        if rows > 0 {
            late.append(
                localized(format: rows == 1 ? "%d row changed on the Screen" : "%d rows changed on the Screen", rows))
        }
        return late.isEmpty
            ? nil : localized(format: "after the cancel at %1$@ s, %2$@", cancelAt.formattedSeconds, clauses(late))
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
            doneSeconds: seconds(.totalSeconds) ?? spans.map(\.end).max() ?? 0, droppedFrames: screen.droppedFrames,
            failure: failure)
    }
}

/// "1 request", "2 requests" (in Japanese "リクエスト 2 件").
func countedRequests(_ count: Int) -> String {
    localized(format: count == 1 ? "%d request" : "%d requests", count)
}

/// "1 row", "2 rows" (in Japanese "2 行").
func countedRows(_ count: Int) -> String {
    localized(format: count == 1 ? "%d row" : "%d rows", count)
}

/// Clauses said together: "a, b and c" in English; in Japanese one after another, with 、 between.
func clauses(_ items: [String]) -> String {
    Localized.language == .ja ? items.joined(separator: localized(", ")) : listed(items)
}
