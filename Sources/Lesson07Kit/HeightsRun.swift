import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a lesson 07 run leaves behind besides its metrics.
public struct HeightsDetails: Sendable {
    /// Every row's measured height (nil: not measured): the result every variant must agree on.
    public var heights: [Double?]
    /// How many times the table reloaded: each reload asks every row's height, which is what
    /// `cacheHits` and `estimatedHeightsUsed` count.
    public var reloads: Int
    /// The rows on screen, whose heights each reload asks a second time, to draw them.
    public var visibleRows: Int
}

/// Runs one variant of the table part (row heights by sizing cell) and adds the lesson's own metrics.
public enum HeightsRun {
    public struct Settings: Sendable {
        public var rows = 10_000
        /// The table's width in cells; the text label is 4 narrower.
        public var width = 40
        public var chunkSize = 500
        /// Chunks the async variant measures at once (its task group's width).
        public var tasks = 1
        public var estimatedHeight = 60.0
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed.
        public var timeoutSeconds = 120.0
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        /// The async variant's demo of where a function the main actor awaits runs, with
        /// Approachable Concurrency on (`--step-isolation`); nil: the task group.
        public var stepIsolation: StepIsolation?
        public init(
            rows: Int = 10_000, width: Int = 40, chunkSize: Int = 500, tasks: Int = 1, output: ScreenOutput = .silent
        ) {
            self.tasks = tasks
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
            title: localized("%d rows, heights by sizing cell (%@)", settings.rows, variant.rawValue),
            output: settings.output,
            texts: texts(count: settings.rows), estimatedHeight: settings.estimatedHeight)
        let cellWidth = Double(settings.width)
        let threaded = ThreadedHeights(chunkSize: settings.chunkSize)
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
            cancelAfter: settings.cancelAfter,
            details: HeightsDetails(
                heights: controller.cache.all, reloads: controller.screen.table.reloadCount,
                visibleRows: controller.visibleRows)
        ) {
            switch variant {
            case .threaded: threaded.start(controller, cellWidth: cellWidth)
            case .async:
                AsyncHeights.start(
                    controller, cellWidth: cellWidth, chunkSize: settings.chunkSize, tasks: settings.tasks,
                    stepIsolation: settings.stepIsolation)
            case .noThread: NoThreadHeights.run(controller, cellWidth: cellWidth)
            }
        }
        let cache = controller.cache
        run.metrics += [
            (.rowsMeasured, .count(cache.measuredCount)), (.cacheHits, .count(cache.hits)),
            (.estimatedHeightsUsed, .count(cache.estimates)),
            (.contentHeightPoints, .count(Int(run.details.heights.reduce(0) { $0 + ($1 ?? 0) }))),
        ]
        return run
    }

    /// What the numbers mean, written from them: whether every run measured the same
    /// heights, then each run's first rows on screen and worst freeze.
    public static func takeaway(_ runs: [VariantRun<HeightsDetails>]) -> String {
        guard let first = runs.first else { return "" }
        guard runs.allSatisfy({ $0.details.heights == first.details.heights }) else {
            return localized("The variants measured different heights: the measuring is not the same job every way.")
        }
        let each = runs.map { run in
            localized(
                "%@: table on screen after %.3f s, worst freeze %.3f s, all measured after %.2f s", run.name,
                run.screen.firstRowsSeconds ?? 0, run.screen.maxStallSeconds, run.seconds(.totalSeconds) ?? 0)
        }
        var text = localized(
            runs.count == 1 ? "The same %d heights measured; %@." : "The same %d heights every way; %@.",
            first.details.heights.count, each.joined(separator: localized("; ")))
        if let queued = runs.run(.threaded), let tasks = runs.run(.async) {
            text += localized(
                " The task group was %@, without a queue of our own.",
                VariantComparison.verdict(tasks, against: queued, otherName: localized("the queue")))
        } else if runs.count == 1 {
            text += localized(" Run all three variants (the default) to compare them.")
        }
        return text + cacheHitsSentence(runs)
    }

    /// What `cacheHits` counts, and why it differs between the variants: the number of reloads.
    static func cacheHitsSentence(_ runs: [VariantRun<HeightsDetails>]) -> String {
        guard let first = runs.first else { return "" }
        let reloads = runs.map { localized("%@ %d", $0.name, $0.details.reloads) }
        return localized(
            " cacheHits counts the row heights the table read from the cache: each reload asks for every row's height (%d, to size the scroll bar) and again for the %d rows on screen, and the reloads were %@; a row not measured yet gets the estimate instead (estimatedHeightsUsed).",
            first.details.heights.count, first.details.visibleRows, reloads.joined(separator: localized(", ")))
    }
}
