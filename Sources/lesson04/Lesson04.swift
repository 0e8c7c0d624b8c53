import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson04: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson04",
        abstract: "gzip on the wire: three XML APIs fetched without and with compression, timed like the article.",
        discussion: """
        Each variant fetches three XML APIs over a slow link twice, first asking for identity \
        and then for gzip, and times start, response, last byte and parse for each. The \
        no-thread variant does it one API after another on the main thread; the threaded one \
        starts all three together and parses off the main thread.
        Source: "iPhone の NSURLRequest で gzip 使ってみた" (the lesson text gives the details).
        """
    )

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions

    @Option(help: ArgumentHelp("Seconds each request may take before it counts as failed (1-120).", valueName: "seconds"))
    var timeout = 30.0

    /// A slow link, so that 80 KB of XML takes seconds (a 2010 3G phone saw tens of KB/s).
    static let defaultLatency = 0.2
    static let defaultBandwidth = 16_000

    func validate() throws {
        guard (1...120).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 120 seconds (got \(timeout))") }
    }

    func run() throws {
        let ledger = WireLedger()
        let endpoint: FixtureEndpoint
        do {
            endpoint = try makeEndpoint(ledger: ledger)
        } catch {
            throw LessonFailure("could not start the fixture server: \(error)")
        }
        defer { endpoint.stop() }
        let human = !common.json
        let bandwidth = endpoint.knobs.bandwidthBytesPerSecond
        if human {
            say("""
            Lesson 04: gzip on the wire. Three XML APIs (\(XMLAPIs.all.map(\.path).joined(separator: ", "))) from \(endpoint.baseURL.absoluteString)
            (latency \(endpoint.knobs.latencySeconds) s per request, bandwidth \(bandwidth == 0 ? "unlimited" : "\(bandwidth) B/s") per connection).
            Times are seconds since the round started; wire B \(endpoint.server == nil ? "is Content-Length (the server is not ours to count)" : "is counted by the server: head and body as sent").

            """)
        }
        var settings = GzipRun.Settings()
        settings.output = .automatic(json: common.json)
        settings.timeoutSeconds = timeout

        var runs: [GzipRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: each API in turn on the main thread, the main thread waits, then parses"
                    : "threaded: all three started together, parsed on parse-queue, rows added on main")
            }
            let run = GzipRun.perform(variant, endpoint: endpoint, ledger: endpoint.server == nil ? nil : ledger,
                                      settings: settings)
            if human {
                say("\n" + run.articleTable)
                say("\nWhere the time went (each lane is a thread or queue):\n" + run.trace.timeline() + "\n")
            }
            runs.append(run)
        }

        let parameters: [(String, Metric)] = [
            ("latencySeconds", .seconds(endpoint.knobs.latencySeconds)),
            ("bandwidthBytesPerSecond", .count(bandwidth)),
            ("apis", .text(XMLAPIs.all.map(\.name).joined(separator: ","))),
            ("server", .text(endpoint.baseURL.absoluteString)),
        ]
        let takeaway = Self.takeaway(runs)
        if common.json {
            let report = LessonReport(lesson: "04", title: "gzip on the wire", parameters: parameters,
                                      variants: runs.map { VariantResult(name: $0.variant.rawValue, metrics: $0.allMetrics) },
                                      takeaway: takeaway)
            say(report.json)
        } else {
            let report = LessonReport(lesson: "04", title: "gzip on the wire", parameters: parameters,
                                      variants: runs.map { VariantResult(name: $0.variant.rawValue, metrics: $0.summaryMetrics) },
                                      takeaway: takeaway)
            say(report.table + "\n\n" + report.takeaway)
        }
        if let failed = runs.first(where: { $0.failure != nil }) {
            throw LessonFailure("the \(failed.variant.rawValue) variant failed: \(failed.failure!)")
        }
    }

    /// Our own fixture server, logging every response's wire bytes into `ledger`; or `--server`.
    func makeEndpoint(ledger: WireLedger) throws -> FixtureEndpoint {
        if network.server != nil {
            return try network.makeAPI(defaultLatency: Self.defaultLatency, defaultBandwidth: Self.defaultBandwidth)
        }
        let knobs = ServerKnobs(latencySeconds: network.latency ?? Self.defaultLatency,
                                bandwidthBytesPerSecond: network.bandwidth ?? Self.defaultBandwidth)
        let server = FixtureServer(knobs: knobs, onRequest: ledger.record)
        return FixtureEndpoint(baseURL: try server.start(), server: server, knobs: knobs)
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [GzipRun]) -> String {
        guard let first = runs.first, first.failure == nil else {
            return "A variant failed; see the error above."
        }
        var text = String(format: """
            gzip sent %d bytes instead of %d (%.2fx) for the same %d decoded bytes, and all three \
            APIs were parsed after %.2f s instead of %.2f s (%@).
            """, first.wireBytes(.gzip), first.wireBytes(.identity), first.gzipRatio, first.decodedBytes,
            first.roundSeconds(.gzip), first.roundSeconds(.identity), first.variant.rawValue)
        if let plain = runs.first(where: { $0.variant == .noThread }), let queued = runs.first(where: { $0.variant == .threaded }) {
            text += String(format: " Threads did not shrink a byte; they kept the main thread free (worst freeze %.2f s vs %.3f s).",
                           plain.screen.maxStallSeconds, queued.screen.maxStallSeconds)
        }
        return text
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
