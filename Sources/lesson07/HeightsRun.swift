import WorkshopCore

/// One variant of the table part run end to end on the main thread, and what it measured.
struct HeightsRun {
    struct Settings {
        var rows = 10_000
        /// The table's width in cells; the text label is 4 narrower.
        var width = 40
        var chunkSize = 500
        var estimatedHeight = 60.0
        var output = ScreenOutput.silent
        var timeoutSeconds = 120.0
    }

    var variant: Variant
    var metrics: [(String, Metric)]
    /// Every row's measured height: the result both variants must agree on.
    var heights: [Double?]
    var failure: String?
    var screen: ScreenMetrics

    /// The texts to measure: the fixture timeline's posts, each with its author and number
    /// so that no two are alike (a cache keyed by text would otherwise hide the work).
    static func texts(count: Int) -> [String] {
        FixtureAPI.timeline(count: count, baseURL: "").map { "@\($0.user.name) #\($0.id) \($0.text)" }
    }

    /// Runs `variant`. Call on the main thread: it runs the main run loop until all rows
    /// are measured and shown (or `settings.timeoutSeconds` passed).
    static func perform(_ variant: Variant, settings: Settings) -> HeightsRun {
        requireMainQueue()
        let screen = Screen(title: "\(settings.rows) rows, heights by sizing cell (\(variant.rawValue))", output: settings.output)
        let controller = RowHeightsController(screen: screen, texts: texts(count: settings.rows),
                                              estimatedHeight: settings.estimatedHeight)
        let cellWidth = Double(settings.width)
        let clock = Stopwatch()
        screen.start()
        switch variant {
        case .threaded:
            MeasureInBackground(chunkSize: settings.chunkSize).start(controller, cellWidth: cellWidth)
        default:
            MeasureOnMain.run(controller, cellWidth: cellWidth)
        }
        let finished = MainLoop.run(timeout: settings.timeoutSeconds) { controller.isFinished }
        let total = clock.elapsed
        let measured = screen.stop()
        var failure = controller.failure
        if !finished && failure == nil {
            failure = "gave up after \(Int(settings.timeoutSeconds)) s: \(controller.cache.measuredCount) of \(settings.rows) rows measured"
        }
        let heights = controller.cache.all
        let metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstRowsSeconds ?? total)),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
            ("rowsMeasured", .count(controller.cache.measuredCount)),
            ("cacheHits", .count(controller.cache.hits)),
            ("estimatedHeightsUsed", .count(controller.cache.estimates)),
            ("contentHeightPoints", .count(Int(heights.reduce(0) { $0 + ($1 ?? 0) }))),
        ]
        return HeightsRun(variant: variant, metrics: metrics, heights: heights, failure: failure, screen: measured)
    }
}
