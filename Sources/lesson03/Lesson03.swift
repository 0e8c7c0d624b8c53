import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson03: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson03",
        abstract: "GCD queues: a public timeline and its icons, fetched on the main thread and then on queues.",
        discussion: """
        The no-thread variant fetches the timeline and every icon on the main thread, so the \
        Screen freezes until all of it is in. The threaded variant fetches on a timeline queue \
        and an image queue and hands each result to the main queue, so the Screen keeps drawing.
        Source: "Grand Central Dispatchで楽々マルチスレッド" (the lesson text gives the details).
        """
    )

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions

    @Option(help: ArgumentHelp("Timeline entries to fetch (1-500).", valueName: "n"))
    var rows = 20

    @Option(help: ArgumentHelp("Icon fetches that may run at once in the threaded variant (1-16; the article's serial image queue is 1).", valueName: "k"))
    var imageWidth = 1

    static let defaultLatency = 0.15
    static let defaultBandwidth = 50_000

    func validate() throws {
        guard (1...500).contains(rows) else { throw ValidationError("--rows must be between 1 and 500 (got \(rows))") }
        guard (1...16).contains(imageWidth) else {
            throw ValidationError("--image-width must be between 1 and 16 (got \(imageWidth))")
        }
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
        if human {
            say("""
            Lesson 03: GCD queues. A public timeline of \(rows) posts and their icons, from \(endpoint.baseURL.absoluteString)
            (latency \(endpoint.knobs.latencySeconds) s per request, bandwidth \(endpoint.knobs.bandwidthBytesPerSecond == 0 ? "unlimited" : "\(endpoint.knobs.bandwidthBytesPerSecond) B/s")).

            """)
        }
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.output = .automatic(json: common.json)
        settings.timeoutSeconds = 30 + Double(rows + 1) * (endpoint.knobs.latencySeconds * 2 + 1)

        var runs: [TimelineRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: fetch the timeline, then each icon while drawing its row, all on the main thread"
                    : "threaded: timeline on timeline-queue, icons on \(imageWidth == 1 ? "one serial image-queue" : "\(imageWidth) image queues"), UI on main")
            }
            let run = TimelineRun.perform(variant, endpoint: endpoint, settings: settings)
            if human {
                if let failure = run.failure { say("  failed: \(failure)") }
                say("\nWhere the time went (each lane is a thread or queue):\n" + run.trace.timeline() + "\n")
            }
            runs.append(run)
        }

        let report = LessonReport(
            lesson: "03", title: "GCD queues: timeline and icons",
            parameters: [("rows", .count(rows)), ("latencySeconds", .seconds(endpoint.knobs.latencySeconds)),
                         ("bandwidthBytesPerSecond", .count(endpoint.knobs.bandwidthBytesPerSecond)),
                         ("imageWidth", .count(imageWidth)), ("server", .text(endpoint.baseURL.absoluteString))],
            variants: runs.map { VariantResult(name: $0.variant.rawValue, metrics: $0.metrics) },
            takeaway: Self.takeaway(runs))
        if common.json {
            say(report.json)
        } else {
            say(report.table + "\n\n" + report.takeaway)
        }
        if let failed = runs.first(where: { $0.failure != nil }) {
            throw LessonFailure("the \(failed.variant.rawValue) variant failed: \(failed.failure!)")
        }
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [TimelineRun]) -> String {
        guard let plain = runs.first(where: { $0.variant == .noThread }),
              let queued = runs.first(where: { $0.variant == .threaded }) else {
            return "Run both variants (the default) to compare them."
        }
        let stall = (plain.screen.maxStallSeconds, queued.screen.maxStallSeconds)
        let first = (plain.screen.firstContentSeconds ?? 0, queued.screen.firstContentSeconds ?? 0)
        return String(format: """
            Queues did not make the network faster, they kept the main thread free: the worst freeze \
            went from %.2f s to %.3f s and something was on screen after %.3f s instead of %.2f s.
            """, stall.0, stall.1, first.1, first.0)
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
