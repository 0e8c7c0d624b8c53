import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson02: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson02",
        abstract: "A run-loop thread: a news feed fetched and push-parsed on a network thread that sleeps in its run loop between callbacks.",
        discussion: """
        The no-thread variant downloads the whole XML feed on the main thread and parses it afterwards, \
        so the Screen stays frozen and empty until the end. The threaded variant hands the fetch to a \
        thread that sleeps in its run loop, receives every fetch callback there and parses each chunk \
        as it arrives, so items appear during the download; beside it run the same thread with its loop \
        written two wrong ways (no source, past deadline), which spin a core, and parse-after-download.
        Source: "別スレッドで NSURLConnection を使うときのメモ" (2010-06-26); see Lessons/02-run-loop-thread.md.
        """
    )

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions

    @Option(help: ArgumentHelp("Items in the feed (1-5000; 140 items is about 1,000 lines of XML).", valueName: "n"))
    var items = FeedAPI.defaultItems

    @Flag(inversion: .prefixedNo,
          help: "With the threaded variant, also run the two spinning loops and parse-after-download, for comparison.")
    var compare = true

    @Option(help: ArgumentHelp("Ask the server to break the feed: malformed (cut in half), drop, stall, or an HTTP status such as 500.", valueName: "kind"))
    var fault: String?

    static let defaultLatency = 0.1
    /// About 50 KB of feed at 25 KB/s: two seconds, long enough to watch items arrive.
    static let defaultBandwidth = 25_000

    func validate() throws {
        guard (1...5000).contains(items) else { throw ValidationError("--items must be between 1 and 5000 (got \(items))") }
        if let fault, Fault(fault) == nil {
            throw ValidationError("--fault must be malformed, drop, stall or an HTTP status 100-599 (got '\(fault)')")
        }
    }

    /// The runs for one `--variant`, in the order they are shown.
    func kinds(for variant: Variant) -> [FeedRun.Kind] {
        guard variant == .threaded else { return [.noThread] }
        let threaded: FeedRun.Kind = .threaded(.keepAlive, .streaming)
        guard compare else { return [threaded] }
        return [threaded, .threaded(.keepAlive, .afterDownload), .threaded(.noSource, .streaming),
                .threaded(.pastDeadline, .streaming)]
    }

    func run() throws {
        let endpoint: FixtureEndpoint
        do {
            endpoint = try network.makeAPI(defaultLatency: Self.defaultLatency, defaultBandwidth: Self.defaultBandwidth)
        } catch {
            throw LessonFailure("could not start the fixture server: \(error)")
        }
        defer { endpoint.stop() }
        let human = !common.json
        let feedBytes = FeedAPI.feed(items: items, baseURL: endpoint.baseURL.absoluteString).utf8.count
        if human {
            let bandwidth = endpoint.knobs.bandwidthBytesPerSecond
            say("""
            Lesson 02: a run-loop thread. A feed of \(items) items (about \(feedBytes / 1000) KB of XML) from \(endpoint.baseURL.absoluteString)
            (latency \(endpoint.knobs.latencySeconds) s, bandwidth \(bandwidth == 0 ? "unlimited" : "\(bandwidth) B/s")).

            """)
        }
        var settings = FeedRun.Settings()
        settings.items = items
        settings.fault = fault.flatMap(Fault.init)
        settings.output = .automatic(json: common.json)
        let bandwidth = Double(max(endpoint.knobs.bandwidthBytesPerSecond, 1))
        settings.timeoutSeconds = 30 + endpoint.knobs.latencySeconds + Double(feedBytes) / bandwidth

        var runs: [FeedRun] = []
        for kind in common.variant.selected.flatMap(kinds(for:)) {
            if human { say(Self.describe(kind)) }
            let run = FeedRun.perform(kind, endpoint: endpoint, settings: settings)
            if human, let failure = run.failure { say("  failed: \(failure)") }
            if human { say("") }
            runs.append(run)
        }

        let report = LessonReport(
            lesson: "02", title: "A run-loop thread: fetch and push-parse a feed",
            parameters: [("items", .count(items)), ("feedBytes", .bytes(feedBytes)),
                         ("latencySeconds", .seconds(endpoint.knobs.latencySeconds)),
                         ("bandwidthBytesPerSecond", .count(endpoint.knobs.bandwidthBytesPerSecond)),
                         ("server", .text(endpoint.baseURL.absoluteString))],
            variants: runs.map { VariantResult(name: $0.kind.name, metrics: $0.metrics) },
            takeaway: Self.takeaway(runs))
        if common.json {
            say(report.json)
        } else {
            say(report.table + "\n\n" + report.takeaway)
        }
        if let failed = runs.first(where: { $0.failure != nil }) {
            throw LessonFailure("the \(failed.kind.name) variant failed: \(failed.failure!)")
        }
    }

    static func describe(_ kind: FeedRun.Kind) -> String {
        switch kind {
        case .noThread:
            "no-thread: download the whole feed on the main thread, then parse it there"
        case .threaded(let style, let parsing):
            "\(kind.name): network thread, \(style.explanation); parse \(parsing == .streaming ? "each chunk as it arrives" : "after the download")"
        }
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [FeedRun]) -> String {
        func run(_ name: String) -> FeedRun? { runs.first { $0.kind.name == name && $0.failure == nil } }
        var lines: [String] = []
        if let plain = run("no-thread"), let threaded = run("threaded") {
            lines.append(String(format: """
                The first item was on screen after %.2f s on the run-loop thread instead of %.2f s, and the \
                worst freeze went from %.2f s to %.3f s.
                """, threaded.screen.firstRowsSeconds ?? 0, plain.screen.firstRowsSeconds ?? 0,
                plain.screen.maxStallSeconds, threaded.screen.maxStallSeconds))
        }
        if let threaded = run("threaded"), let after = run("threaded-after-download") {
            lines.append(String(format: "Parsing after the download put the first item at %.2f s instead of %.2f s.",
                                after.screen.firstRowsSeconds ?? 0, threaded.screen.firstRowsSeconds ?? 0))
        }
        if let sleeping = run("threaded")?.threadStats, let spinning = run("spin-no-source")?.threadStats,
           spinning.cpuSeconds > 0 {
            lines.append(String(format: """
                The loop with no source spun %d times and burned %.2f s of CPU; the keep-alive loop used %.4f s \
                (%.1f%%) for the same fetch.
                """, spinning.loopIterations, spinning.cpuSeconds, sleeping.cpuSeconds,
                100 * sleeping.cpuSeconds / spinning.cpuSeconds))
        }
        return lines.isEmpty ? "Run both variants (the default) to compare them." : lines.joined(separator: " ")
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
