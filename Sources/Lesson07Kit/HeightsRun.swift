import Foundation
import WorkshopCore

/// What a lesson 07 run leaves behind besides its metrics.
public struct HeightsDetails: Sendable {
    /// Every row's measured height (nil: not measured): the result both variants must agree on.
    public var heights: [Double?]
}

/// Runs one variant of the table part (row heights by sizing cell) and adds the lesson's own metrics.
public enum HeightsRun {
    public struct Settings: Sendable {
        public var rows = 10_000
        /// The table's width in cells; the text label is 4 narrower.
        public var width = 40
        public var chunkSize = 500
        public var estimatedHeight = 60.0
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed.
        public var timeoutSeconds = 120.0
        public init(rows: Int = 10_000, width: Int = 40, chunkSize: Int = 500, output: ScreenOutput = .silent) {
            self.rows = rows
            self.width = width
            self.chunkSize = chunkSize
            self.output = output
        }
    }

    /// The texts to measure: the fixture timeline's posts, each with its author and number
    /// so that no two are alike (a cache keyed by text would otherwise hide the work).
    public static func texts(count: Int) -> [String] {
        FixtureAPI.timeline(count: count, baseURL: "").map { "@\($0.user.name) #\($0.id) \($0.text)" }
    }

    /// Call on the main thread: it serves the main run loop until every row is measured and
    /// shown, or the run failed or gave up.
    @MainActor
    public static func perform(_ variant: Variant, settings: Settings) -> VariantRun<HeightsDetails> {
        let controller = RowHeightsController(
            title: "\(settings.rows) rows, heights by sizing cell (\(variant.rawValue))", output: settings.output,
            texts: texts(count: settings.rows), estimatedHeight: settings.estimatedHeight)
        let cellWidth = Double(settings.width)
        let threaded = ThreadedHeights(chunkSize: settings.chunkSize)
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
            details: HeightsDetails(heights: controller.cache.all)
        ) {
            switch variant {
            case .threaded: threaded.start(controller, cellWidth: cellWidth)
            default: NoThreadHeights.run(controller, cellWidth: cellWidth)
            }
        }
        threaded.cancel()  // a run that failed or gave up measures no further
        let cache = controller.cache
        run.metrics += [
            ("rowsMeasured", .count(cache.measuredCount)), ("cacheHits", .count(cache.hits)),
            ("estimatedHeightsUsed", .count(cache.estimates)),
            ("contentHeightPoints", .count(Int(run.details.heights.reduce(0) { $0 + ($1 ?? 0) }))),
        ]
        return run
    }

    /// What the numbers of the two variants mean, written from them.
    public static func takeaway(plain: VariantRun<HeightsDetails>, queued: VariantRun<HeightsDetails>) -> String {
        guard plain.details.heights == queued.details.heights else {
            return "The two variants measured different heights: the measuring is not the same job both ways."
        }
        return String(
            format: """
                The same %d heights either way; measured off the main thread, the table was on screen after \
                %.3f s instead of %.2f s and the worst freeze went from %.2f s to %.3f s.
                """, plain.details.heights.count, queued.screen.firstRowsSeconds ?? 0,
            plain.screen.firstRowsSeconds ?? 0, plain.screen.maxStallSeconds, queued.screen.maxStallSeconds)
    }
}
