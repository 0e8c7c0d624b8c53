import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a lesson 03 run leaves behind besides its metrics.
public struct TimelineDetails: Sendable {
    /// The table as it stood at the end: the result every variant must agree on.
    public var rows: [TableRow]
    /// From the rows on screen to the last icon in (nil if the rows never came).
    public var iconsPhaseSeconds: Double?
}

/// Runs one variant of lesson 03 against an endpoint and adds the lesson's own metrics.
public enum TimelineRun {
    public struct Settings: Sendable {
        public var rows = 20
        public var imageWidth = 1
        /// Rows that fit on the screen (nil: all of them; the program's default is 8).
        public var visibleRows: Int?
        /// The user's scrolls, in rows (negative: up), each made once the screen has settled.
        public var scrollMoves: [Int] = []
        /// Keep fetched icons, so that a row scrolled back into view needs no request.
        public var cache = true
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed.
        public var timeoutSeconds = 120.0
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        public init() {}
    }

    /// Call on the main thread: it serves the main run loop until the variant has finished.
    @MainActor
    public static func perform(
        _ variant: Variant, endpoint: FixtureEndpoint, settings: Settings,
        prepare: (TimelineController) -> Void = { _ in }
    ) -> VariantRun<TimelineDetails> {
        let requestsBefore = endpoint.requestsServed
        let controller = TimelineController(
            title: "public timeline (\(variant.rawValue))", output: settings.output, visibleRows: settings.visibleRows,
            scrollMoves: settings.scrollMoves, cache: settings.cache)
        let client = TimelineClient(endpoint: endpoint)
        prepare(controller)
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
            cancelAfter: settings.cancelAfter, endpoint: endpoint,
            details: TimelineDetails(
                rows: controller.screen.table.rows, iconsPhaseSeconds: controller.iconsPhaseSeconds)
        ) {
            switch variant {
            case .threaded:
                ThreadedTimeline(imageWidth: settings.imageWidth).start(controller, client: client, rows: settings.rows)
            case .async:
                AsyncTimeline(imageWidth: settings.imageWidth).start(controller, client: client, rows: settings.rows)
            case .noThread: NoThreadTimeline.run(controller, client: client, rows: settings.rows)
            }
        }
        let total = run.seconds(.totalSeconds) ?? 0
        run.metrics.insert((.timelineShownSeconds, .seconds(run.screen.firstRowsSeconds ?? total)), at: 2)
        // The last icon set on its row (with scrolling, rows never shown have no icon, so this is
        // not "the first frame with every row complete").
        run.metrics.insert((.allIconsShownSeconds, .seconds(controller.lastIconAt ?? total)), at: 3)
        if let phase = run.details.iconsPhaseSeconds { run.metrics.append((.iconsPhaseSeconds, .seconds(phase))) }
        if let before = requestsBefore, let after = endpoint.requestsServed {
            run.metrics.append((.requestsServed, .count(after - before)))
        }
        run.metrics.append((.iconRequests, .count(controller.iconRequests)))
        run.metrics.append((.iconCacheHits, .count(controller.iconCacheHits)))
        run.metrics.append((.iconFailures, .count(controller.iconFailures)))
        return run
    }

    /// Reads a scroll script such as "down 8, down 8, up 8" into row moves ([8, 8, -8]);
    /// "none" or "" is no scrolling. Throws a sentence saying what is wrong.
    public static func scrollMoves(_ script: String) throws(ScrollScriptError) -> [Int] {
        let text = script.trimmingCharacters(in: .whitespaces).lowercased()
        if text.isEmpty || text == "none" { return [] }
        return try text.split(separator: ",").map { (move) throws(ScrollScriptError) -> Int in
            let words = move.split(separator: " ")
            guard words.count == 2, let rows = Int(words[1]), (1...500).contains(rows),
                words[0] == "down" || words[0] == "up"
            else {
                throw ScrollScriptError(
                    description: localized(
                        "'%@' is not a move like 'down 8' or 'up 8' (1-500 rows)",
                        move.trimmingCharacters(in: .whitespaces)))
            }
            return words[0] == "down" ? rows : -rows
        }
    }
}

/// Why a `--scroll` script could not be read.
public struct ScrollScriptError: Error, CustomStringConvertible {
    public let description: String
}

extension TimelineRun {
    /// What the numbers mean, written from them: the freeze before and after moving the work,
    /// the async variant against the queues, and what the icon cache saved.
    public static func takeaway(_ runs: [VariantRun<TimelineDetails>], cache: Bool) -> String {
        let (plain, queued, awaited) = (runs.run(.noThread), runs.run(.threaded), runs.run(.async))
        var sentences: [String] = []
        if let plain, let moved = queued ?? awaited {
            let helper = localized(
                queued == nil
                    ? "Tasks did not make the network faster, they kept the main thread free: "
                    : "Queues did not make the network faster, they kept the main thread free: ")
            let figures = localized(
                "the worst freeze went from %.2f s to %.3f s and something was on screen after %.3f s instead of %.2f s.",
                plain.screen.maxStallSeconds, moved.screen.maxStallSeconds, moved.screen.firstContentSeconds ?? 0,
                plain.screen.firstContentSeconds ?? 0)
            sentences.append(helper + figures)
        }
        if let awaited {
            let total = awaited.seconds(.totalSeconds) ?? 0
            if let queued {
                sentences.append(
                    localized(
                        "async: worst freeze %1$.3f s, total %2$.2f s, %3$@, without a thread of our own.",
                        awaited.screen.maxStallSeconds, total,
                        VariantComparison.verdict(awaited, against: queued, otherName: localized("the queues"))))
            } else if plain == nil {
                sentences.append(
                    localized(
                        "async: worst freeze %.3f s, total %.2f s, without a thread of our own.",
                        awaited.screen.maxStallSeconds, total))
            }
        }
        if let any = runs.first, let requests = any.count(.iconRequests), let hits = any.count(.iconCacheHits) {
            sentences.append(
                !cache
                    ? localized(
                        requests == 1
                            ? "Without the cache every row that came back into view was fetched again: %d icon request."
                            : "Without the cache every row that came back into view was fetched again: %d icon requests.",
                        requests)
                    : localized(
                        hits == 1
                            ? "The cache saved %1$d request: %2$d icon requests for the rows shown."
                            : "The cache saved %1$d requests: %2$d icon requests for the rows shown.", hits, requests)
            )
        }
        if runs.count < 2 {
            sentences.append(localized("Run all variants (the default) to compare them."))
        }
        return WorkshopCore.sentences(sentences)
    }
}
