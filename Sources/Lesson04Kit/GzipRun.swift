import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// Runs one variant of lesson 04 (the three APIs without gzip, then with gzip) and adds the
/// lesson's own metrics to the four every lesson reports.
public enum GzipRun {
    public struct Settings: Sendable {
        public var output = ScreenOutput.silent
        /// Upper bound for the whole run; a run that has not finished by then has failed. Nil:
        /// six requests that may each wait the whole request timeout, plus every body (about
        /// 95 KB) at the link's bandwidth.
        public var timeoutSeconds: Double?
        /// Also report every API's four time stamps and sizes (36 more metrics, for `--json`).
        public var perAPIMetrics = false
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        public init() {}
    }

    /// Call on the main thread: it serves the main run loop until the variant has finished.
    /// `ledger` is the in-process server's request log (nil with `--server`).
    @MainActor
    public static func perform(
        _ variant: Variant, endpoint: FixtureEndpoint, ledger: WireLedger?, settings: Settings
    ) -> VariantRun<GzipDetails> {
        ledger?.reset()
        let controller = ResultsController(title: "three XML APIs (\(variant.rawValue))", output: settings.output)
        let knobs = endpoint.knobs
        let transfer = knobs.bandwidthBytesPerSecond > 0 ? 100_000 / Double(knobs.bandwidthBytesPerSecond) : 0
        let bound = 6 * (knobs.latencySeconds + 1) + transfer + 2 * endpoint.timeoutSeconds
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds ?? bound,
            // A round's three requests go out together: all three may be on their way at a cancel.
            cancelAfter: settings.cancelAfter, endpoint: endpoint, requestsAtOnce: XMLAPIs.all.count,
            details: GzipDetails(outcomes: controller.outcomes)
        ) {
            switch variant {
            case .threaded: ThreadedFetch(endpoint: endpoint).start(controller)
            case .async: AsyncFetch(endpoint: endpoint).start(controller)
            case .noThread: NoThreadFetch.run(controller, endpoint: endpoint)
            }
        }
        if let ledger, run.failure == nil, !controller.wasCancelledByUser {
            // The server logs a response just after its last byte left, which can be a moment
            // after the client saw that byte: wait (briefly, bounded) for all six entries.
            MainLoop.run(timeout: 2) { ledger.responses >= run.details.outcomes.count }
            for index in run.details.outcomes.indices {
                let outcome = run.details.outcomes[index]
                let gzip = outcome.contentEncoding?.lowercased() == "gzip"
                run.details.outcomes[index].wireBytes = ledger.wireBytes(path: outcome.api.path, gzip: gzip)
            }
        }
        run.metrics += run.details.summaryMetrics + (settings.perAPIMetrics ? run.details.perAPIMetrics : [])
        if run.gotStarted { run.notes = ["\n" + run.details.articleTable] }
        return run
    }
}

/// What a lesson 04 run leaves behind besides its metrics: every API's outcome, in the order
/// they were shown.
public struct GzipDetails: Sendable {
    public var outcomes: [APIOutcome]

    public func outcome(_ api: XMLAPIs.API, _ encoding: Encoding) -> APIOutcome? {
        outcomes.first { $0.api == api && $0.encoding == encoding }
    }

    /// Seconds from a round's start until its last API was parsed.
    public func roundSeconds(_ encoding: Encoding) -> Double {
        outcomes.filter { $0.encoding == encoding }.map(\.parsedSeconds).max() ?? 0
    }

    public func wireBytes(_ encoding: Encoding) -> Int {
        outcomes.filter { $0.encoding == encoding }.map(\.reportedWireBytes).reduce(0, +)
    }

    public var decodedBytes: Int { outcomes.filter { $0.encoding == .identity }.map(\.body.count).reduce(0, +) }

    public var gzipRatio: Double {
        let identity = wireBytes(.identity)
        return identity > 0 ? Double(wireBytes(.gzip)) / Double(identity) : 0
    }

    /// The lesson's summary, after the four common metrics: the table people read.
    var summaryMetrics: [(MetricName, Metric)] {
        [
            (.identityAllParsedSeconds, .seconds(roundSeconds(.identity))),
            (.gzipAllParsedSeconds, .seconds(roundSeconds(.gzip))),
            (.identityWireBytes, .bytes(wireBytes(.identity))),
            (.gzipWireBytes, .bytes(wireBytes(.gzip))),
            (.decodedBodyBytes, .bytes(decodedBytes)),
            (.gzipWireRatio, .ratio(gzipRatio)),
            (.recordsParsed, .count(outcomes.map(\.records.count).reduce(0, +))),
        ]
    }

    /// The article's table for each API and encoding, as metrics ("catalogGzipDataSeconds").
    var perAPIMetrics: [(MetricName, Metric)] {
        var metrics: [(MetricName, Metric)] = []
        for api in XMLAPIs.all {
            for encoding in Encoding.allCases {
                guard let o = outcome(api, encoding) else { continue }
                let figures: [Metric] = [
                    .seconds(o.startSeconds), .seconds(o.responseSeconds), .seconds(o.dataSeconds),
                    .seconds(o.parsedSeconds), .bytes(o.reportedWireBytes), .bytes(o.body.count),
                ]
                metrics += zip(GzipRun.perAPINames(api, encoding), figures).map { ($0, $1) }
            }
        }
        return metrics
    }

    /// The article's table, one block per encoding: when each API started, got its response,
    /// got its last byte and was parsed, plus the sizes.
    var articleTable: String {
        var blocks: [String] = []
        for encoding in Encoding.allCases {
            let rows = XMLAPIs.all.enumerated().compactMap { index, api -> [String]? in
                guard let o = outcome(api, encoding) else { return nil }
                let identity = outcome(api, .identity)?.reportedWireBytes ?? 0
                let ratio = identity > 0 ? String(format: "%.2f", Double(o.reportedWireBytes) / Double(identity)) : "-"
                let times = [o.startSeconds, o.responseSeconds, o.dataSeconds, o.parsedSeconds]
                return ["\(index + 1) \(api.name)"] + times.map { String(format: "%.3f", $0) }
                    + [String(o.reportedWireBytes), String(o.body.count), ratio]
            }
            guard !rows.isEmpty else { continue }
            let table = TextTable(
                header: ["API", "start", "response", "data", "parsed", "wire B", "body B", "ratio"], rows: rows)
            blocks.append(
                localized(
                    encoding == .gzip
                        ? "with gzip (Accept-Encoding: gzip)" : "without compression (Accept-Encoding: identity)")
                    + "\n" + table.text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n")
    }
}

/// What every variant shares: where the APIs are, and the in-process server's byte count
/// (nil with `--server`, whose bytes are not ours to count).
public struct GzipSetup: LessonSetup {
    public let endpoint: FixtureEndpoint
    public let ledger: WireLedger?

    public init(endpoint: FixtureEndpoint, ledger: WireLedger?) {
        self.endpoint = endpoint
        self.ledger = ledger
    }

    public func tearDown() { endpoint.tearDown() }
}

extension GzipRun {
    /// The names of the article's figures for one API and encoding, in the table's order:
    /// "catalogGzipStartSeconds", ...ResponseSeconds, ...DataSeconds, ...ParsedSeconds,
    /// ...WireBytes, ...BodyBytes (`--json` only).
    public static func perAPINames(_ api: XMLAPIs.API, _ encoding: Encoding) -> [MetricName] {
        let prefix = api.name + (encoding == .gzip ? "Gzip" : "Identity")
        return ["StartSeconds", "ResponseSeconds", "DataSeconds", "ParsedSeconds", "WireBytes", "BodyBytes"].map {
            MetricName(prefix + $0)
        }
    }

    /// What the numbers mean, written from them: the bytes gzip saved, the freeze threads
    /// removed, and the async variant against the queues.
    public static func takeaway(_ runs: [VariantRun<GzipDetails>]) -> String {
        guard let first = runs.first?.details else { return "" }
        var text = localized(
            "gzip sent %d bytes instead of %d (%.2fx) for the same %d decoded bytes, and all three APIs were parsed after %.2f s instead of %.2f s (%@).",
            first.wireBytes(.gzip), first.wireBytes(.identity), first.gzipRatio, first.decodedBytes,
            first.roundSeconds(.gzip), first.roundSeconds(.identity), runs[0].name)
        let (plain, queued, tasks) = (runs.run(.noThread), runs.run(.threaded), runs.run(.async))
        if let plain, let queued {
            text += localized(
                " Threads did not shrink a byte; they kept the main thread free (worst freeze %.2f s vs %.3f s).",
                plain.screen.maxStallSeconds, queued.screen.maxStallSeconds)
        }
        if let tasks {
            let (freeze, total) = (tasks.screen.maxStallSeconds, tasks.seconds(.totalSeconds) ?? 0)
            if let queued {
                text += localized(
                    " async: worst freeze %1$.3f s, total %2$.2f s, %3$@, without a thread of our own.", freeze, total,
                    VariantComparison.verdict(tasks, against: queued, otherName: localized("the queues")))
            } else if let plain {
                text += localized(
                    " async: worst freeze %.3f s, total %.2f s against the main thread's %.2f s freeze, without a thread of our own.",
                    freeze, total, plain.screen.maxStallSeconds)
            } else {
                text += localized(
                    " async: worst freeze %.3f s, total %.2f s, without a thread of our own.", freeze, total)
            }
        }
        return text
    }
}
