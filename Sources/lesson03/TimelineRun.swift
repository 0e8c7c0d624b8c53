import WorkshopCore

/// One variant run end to end on the main thread, and what it measured.
struct TimelineRun {
    struct Settings {
        var rows = 20
        var imageWidth = 1
        var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then is reported as failed.
        var timeoutSeconds = 120.0
    }

    var variant: Variant
    var metrics: [(String, Metric)]
    /// The table as it stood at the end: the result both variants must agree on.
    var rows: [TableRow]
    var failure: String?
    var trace: Trace
    var iconsPhaseSeconds: Double?
    var screen: ScreenMetrics

    /// Runs `variant` against `endpoint`. Call on the main thread: it runs the main run loop
    /// until the variant has finished (or `settings.timeoutSeconds` passed).
    static func perform(_ variant: Variant, endpoint: FixtureEndpoint, settings: Settings,
                        prepare: (TimelineController) -> Void = { _ in }) -> TimelineRun {
        requireMainQueue()
        let requestsBefore = endpoint.requestsServed
        let trace = Trace()
        let screen = Screen(title: "public timeline (\(variant.rawValue))", output: settings.output)
        let controller = TimelineController(screen: screen, client: TimelineClient(endpoint: endpoint), trace: trace)
        prepare(controller)
        let clock = Stopwatch()
        screen.start()
        switch variant {
        case .threaded:
            GCDTimeline(imageWidth: settings.imageWidth).start(controller, rows: settings.rows)
        default:
            NoThreadTimeline.run(controller, rows: settings.rows)
        }
        let finished = MainLoop.run(timeout: settings.timeoutSeconds) { controller.isFinished }
        let total = clock.elapsed
        let measured = screen.stop()

        var metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstContentSeconds ?? total)),
            ("timelineShownSeconds", .seconds(measured.firstRowsSeconds ?? total)),
            ("allIconsShownSeconds", .seconds(measured.completeSeconds ?? total)),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
        ]
        var iconsPhase: Double?
        if let shown = controller.timelineShownAt, let last = controller.lastIconAt {
            iconsPhase = last - shown
            metrics.append(("iconsPhaseSeconds", .seconds(last - shown)))
        }
        if let before = requestsBefore, let after = endpoint.requestsServed {
            metrics.append(("requestsServed", .count(after - before)))
        }
        metrics.append(("iconFailures", .count(controller.iconFailures)))
        var failure = controller.failure
        if !finished && failure == nil {
            failure = "gave up after \(Int(settings.timeoutSeconds)) s: \(controller.iconsSettled) of \(controller.entries.count) icons in"
        }
        return TimelineRun(variant: variant, metrics: metrics, rows: screen.table.rows, failure: failure,
                           trace: trace, iconsPhaseSeconds: iconsPhase, screen: measured)
    }
}
