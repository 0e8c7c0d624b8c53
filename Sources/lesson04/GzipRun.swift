import Foundation
import WorkshopCore

/// One variant run end to end on the main thread: the three APIs without gzip, then the
/// three with gzip, and what it measured.
struct GzipRun {
    struct Settings {
        var output = ScreenOutput.silent
        /// Per request; a round that has not finished after three times this is reported as failed.
        var timeoutSeconds = 30.0
    }

    var variant: Variant
    var outcomes: [APIOutcome]
    var screen: ScreenMetrics
    var totalSeconds: Double
    var trace: Trace
    var failure: String?

    /// Runs `variant` against `endpoint`. Call on the main thread: it runs the main run loop.
    /// `ledger` is the in-process server's request log (nil with `--server`).
    static func perform(_ variant: Variant, endpoint: FixtureEndpoint, ledger: WireLedger?,
                        settings: Settings) -> GzipRun {
        requireMainQueue()
        ledger?.reset()
        let trace = Trace()
        let screen = Screen(title: "three XML APIs (\(variant.rawValue))", output: settings.output)
        let controller = ResultsController(screen: screen, trace: trace)
        let clock = Stopwatch()
        screen.start()
        var failure: String?
        let threaded = ThreadedFetch()
        if variant == .threaded { controller.showLoading() }
        // One round per encoding, one after the other, so the two never share the link.
        for encoding in Encoding.allCases {
            if variant == .threaded {
                threaded.start(controller, encoding: encoding, endpoint: endpoint, timeout: settings.timeoutSeconds)
            } else {
                NoThreadFetch.run(controller, encoding: encoding, endpoint: endpoint, timeout: settings.timeoutSeconds)
            }
            if !MainLoop.run(timeout: 3 * settings.timeoutSeconds, until: { controller.roundFinished(encoding) }) {
                failure = "gave up on the \(encoding.rawValue) round after \(Int(3 * settings.timeoutSeconds)) s"
                break
            }
        }
        let total = clock.elapsed
        let measured = screen.stop()

        var outcomes = controller.outcomes
        if let ledger {
            // The server logs a response just after its last byte left, which can be a moment
            // after the client saw that byte: wait (briefly, bounded) for all six entries.
            MainLoop.run(timeout: 2) { ledger.responses >= outcomes.count }
            for index in outcomes.indices {
                let gzip = outcomes[index].contentEncoding?.lowercased() == "gzip"
                outcomes[index].wireBytes = ledger.wireBytes(path: outcomes[index].api.path, gzip: gzip)
            }
        }
        failure = failure ?? outcomes.compactMap(\.failure).first
        return GzipRun(variant: variant, outcomes: outcomes, screen: measured, totalSeconds: total,
                       trace: trace, failure: failure)
    }

    func outcome(_ api: XMLAPIs.API, _ encoding: Encoding) -> APIOutcome? {
        outcomes.first { $0.api == api && $0.encoding == encoding }
    }

    /// Seconds from a round's start until its last API was parsed.
    func roundSeconds(_ encoding: Encoding) -> Double {
        outcomes.filter { $0.encoding == encoding }.map(\.parsedSeconds).max() ?? 0
    }

    func wireBytes(_ encoding: Encoding) -> Int {
        outcomes.filter { $0.encoding == encoding }.map(\.reportedWireBytes).reduce(0, +)
    }

    var decodedBytes: Int { outcomes.filter { $0.encoding == .identity }.map(\.body.count).reduce(0, +) }

    var gzipRatio: Double {
        let identity = wireBytes(.identity)
        return identity > 0 ? Double(wireBytes(.gzip)) / Double(identity) : 0
    }

    /// The shared metrics and the lesson's summary: the table people read.
    var summaryMetrics: [(String, Metric)] {
        [
            ("totalSeconds", .seconds(totalSeconds)),
            ("firstContentSeconds", .seconds(screen.firstContentSeconds ?? totalSeconds)),
            ("mainThreadMaxStallSeconds", .seconds(screen.maxStallSeconds)),
            ("droppedFrames", .count(screen.droppedFrames)),
            ("identityAllParsedSeconds", .seconds(roundSeconds(.identity))),
            ("gzipAllParsedSeconds", .seconds(roundSeconds(.gzip))),
            ("identityWireBytes", .bytes(wireBytes(.identity))),
            ("gzipWireBytes", .bytes(wireBytes(.gzip))),
            ("decodedBodyBytes", .bytes(decodedBytes)),
            ("gzipWireRatio", .ratio(gzipRatio)),
            ("recordsParsed", .count(outcomes.map(\.records.count).reduce(0, +))),
        ]
    }

    /// Everything, for `--json`: the summary, then the article's table for each API.
    var allMetrics: [(String, Metric)] {
        var metrics = summaryMetrics
        for api in XMLAPIs.all {
            for encoding in Encoding.allCases {
                guard let o = outcome(api, encoding) else { continue }
                let prefix = api.name + (encoding == .gzip ? "Gzip" : "Identity")
                metrics += [
                    (prefix + "StartSeconds", .seconds(o.startSeconds)),
                    (prefix + "ResponseSeconds", .seconds(o.responseSeconds)),
                    (prefix + "DataSeconds", .seconds(o.dataSeconds)),
                    (prefix + "ParsedSeconds", .seconds(o.parsedSeconds)),
                    (prefix + "WireBytes", .bytes(o.reportedWireBytes)),
                    (prefix + "BodyBytes", .bytes(o.body.count)),
                ]
            }
        }
        return metrics
    }

    /// The article's table, one block per encoding: when each API started, got its response,
    /// got its last byte and was parsed, plus the sizes.
    var articleTable: String {
        var lines: [String] = []
        let header = ["API", "start", "response", "data", "parsed", "wire B", "body B", "ratio"]
        for encoding in Encoding.allCases {
            lines.append(encoding == .gzip ? "with gzip (Accept-Encoding: gzip)" : "without compression (Accept-Encoding: identity)")
            var rows = [header]
            var failures: [String] = []
            for (index, api) in XMLAPIs.all.enumerated() {
                guard let o = outcome(api, encoding) else { continue }
                let label = "\(index + 1) \(api.name)"
                if let failure = o.failure { failures.append("  \(label) failed: \(failure)") }
                if o.body.isEmpty { continue }
                let identity = outcome(api, .identity)?.reportedWireBytes ?? 0
                let ratio = identity > 0 ? String(format: "%.2f", Double(o.reportedWireBytes) / Double(identity)) : "-"
                rows.append([label] + [o.startSeconds, o.responseSeconds, o.dataSeconds, o.parsedSeconds].map { String(format: "%.3f", $0) }
                            + [String(o.reportedWireBytes), String(o.body.count), ratio])
            }
            lines += Self.align(rows).map { "  " + $0 } + failures
        }
        return lines.joined(separator: "\n")
    }

    static func align(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}
