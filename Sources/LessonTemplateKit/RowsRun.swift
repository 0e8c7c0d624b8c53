import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a run leaves behind besides its metrics: the rows every variant must agree on.
public struct RowsDetails: Sendable {
    public var rows: [TableRow]
}

/// Runs one variant of lesson Template against an endpoint and adds the lesson's own metrics.
public enum RowsRun {
    public struct Settings: Sendable {
        /// How many rows the job asks for (`--rows`).
        public var count = 20
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed.
        public var timeoutSeconds = 60.0
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        public init() {}
    }

    /// Call on the main thread: it serves the main run loop until the variant has finished.
    @MainActor
    public static func perform(_ variant: Variant, endpoint: FixtureEndpoint, settings: Settings)
        -> VariantRun<RowsDetails>
    {
        let controller = RowsController(title: "rows (\(variant.rawValue))", output: settings.output)
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
            cancelAfter: settings.cancelAfter, endpoint: endpoint,
            details: RowsDetails(rows: controller.screen.table.rows)
        ) {
            switch variant {
            case .noThread: NoThreadRows.run(controller, endpoint: endpoint, count: settings.count)
            case .threaded: ThreadedRows().start(controller, endpoint: endpoint, count: settings.count)
            case .async: AsyncRows().start(controller, endpoint: endpoint, count: settings.count)
            }
        }
        run.metrics.append((.lessonTemplateRowsShown, .count(controller.rows.count)))
        return run
    }

    /// What the numbers mean, written from them: the worst freeze on the main thread, without
    /// a thread and with one.
    public static func takeaway(_ runs: [VariantRun<RowsDetails>]) -> String {
        guard let plain = runs.run(.noThread), let moved = runs.run(.threaded) ?? runs.run(.async) else {
            return localized("Run all variants (the default) to compare them.")
        }
        return localized(
            "Off the main thread, the worst freeze went from %.2f s to %.3f s; the job took as long.",
            plain.screen.maxStallSeconds, moved.screen.maxStallSeconds)
    }
}
