import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson01: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson01",
        abstract: "Operation queues: log in, get the user, fetch several items and cancel one, first with blocking calls on the main thread, then as asynchronous operations.",
        discussion: """
        The no-thread variant sends every request from the main thread and waits, so the Screen \
        freezes and a cancel tap is handled only when all is done. The threaded variant builds \
        a graph of FetchOperations and ParseOperations (login -> get-user by dependency, items \
        --width at a time) and cancels the slow item mid-flight.
        Source: "NSOperation を使って外部 API から非同期に結果を取得してみる" (2010-06-19); the lesson text gives the details.
        """
    )

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions

    @Option(help: ArgumentHelp("Items to fetch after logging in (1-100).", valueName: "n"))
    var items = 6

    @Option(help: ArgumentHelp("maxConcurrentOperationCount of the threaded variant's queue (1-16).", valueName: "k"))
    var width = 2

    @Option(help: ArgumentHelp("Seconds the server takes for the slow item, the one the user cancels (0-30).", valueName: "seconds"))
    var slowLatency = 2.0

    @Flag(inversion: .prefixedNo, help: "Cancel the slow item (item 1) as soon as the first item is on screen.")
    var cancel = true

    @Flag(help: "Only show why the queue hangs when an asynchronous operation does not announce isFinished.")
    var showHang = false

    static let defaultLatency = 0.15
    static let defaultBandwidth = 50_000

    func validate() throws {
        guard (1...100).contains(items) else { throw ValidationError("--items must be between 1 and 100 (got \(items))") }
        guard (1...16).contains(width) else { throw ValidationError("--width must be between 1 and 16 (got \(width))") }
        guard (0...30).contains(slowLatency) else {
            throw ValidationError("--slow-latency must be between 0 and 30 seconds (got \(slowLatency))")
        }
    }

    func run() throws {
        if showHang { return showWhyNotify() }
        let endpoint: FixtureEndpoint
        do {
            endpoint = try network.makeAPI(defaultLatency: Self.defaultLatency, defaultBandwidth: Self.defaultBandwidth)
        } catch {
            throw LessonFailure("could not start the fixture server: \(error)")
        }
        defer { endpoint.stop() }
        let human = !common.json
        var plan = AccountPlan(endpoint: endpoint)
        plan.itemCount = items
        plan.slowItem = cancel ? 1 : nil
        plan.slowItemLatencySeconds = slowLatency
        if human {
            say("""
            Lesson 01: operation queues. Log in, get the user, read a bundled note and fetch \(items) items from \(endpoint.baseURL.absoluteString)
            (latency \(endpoint.knobs.latencySeconds) s per request, bandwidth \(endpoint.knobs.bandwidthBytesPerSecond == 0 ? "unlimited" : "\(endpoint.knobs.bandwidthBytesPerSecond) B/s")\(cancel ? "; item 1 takes \(slowLatency) s more and the user cancels it" : "")).

            """)
        }
        var settings = FlowRun.Settings()
        settings.width = width
        settings.output = .automatic(json: common.json)
        settings.timeoutSeconds = 30 + slowLatency + Double(items + 3) * (endpoint.knobs.latencySeconds + 1)

        var runs: [FlowRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: every request sent from the main thread, each waited for in turn"
                    : "threaded: FetchOperations and ParseOperations on one OperationQueue, \(width) at a time; results hop to main")
            }
            let run = FlowRun.perform(variant, plan: plan, settings: settings)
            if human, let failure = run.failure { say("  failed: \(failure)") }
            if human { say("") }
            runs.append(run)
        }

        let report = LessonReport(
            lesson: "01", title: "Operation queues: login, user, items, one cancelled",
            parameters: [("items", .count(items)), ("width", .count(width)),
                         ("latencySeconds", .seconds(endpoint.knobs.latencySeconds)),
                         ("bandwidthBytesPerSecond", .count(endpoint.knobs.bandwidthBytesPerSecond)),
                         ("slowLatencySeconds", .seconds(slowLatency)), ("cancel", .text(cancel ? "item 1" : "none")),
                         ("server", .text(endpoint.baseURL.absoluteString))],
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

    func showWhyNotify() {
        say("An asynchronous operation that sets its state but never calls willChangeValue/didChangeValue(forKey: \"isFinished\"):")
        let outcome = WhyNotify.demonstrate(seconds: 1)
        say("""
          1 s after it finished: isFinished = \(outcome.finishedFlag), completionBlock ran = \(outcome.completionBlockRan), \
        dependant ran = \(outcome.dependantRan), operations still in the queue = \(outcome.operationsStillInQueue)
          The operation is done, but the queue was never told: its slot stays taken and its dependant never runs.
          FetchOperation.move(to:) announces every change; that is the whole difference.
        """)
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [FlowRun]) -> String {
        guard let plain = runs.first(where: { $0.variant == .noThread }),
              let queued = runs.first(where: { $0.variant == .threaded }) else {
            return "Run both variants (the default) to compare them."
        }
        func seconds(_ run: FlowRun, _ name: String) -> Double { VariantResult(name: "", metrics: run.metrics).seconds(name) ?? 0 }
        return String(format: """
            The queue ran up to %d requests at once and finished in %.2f s instead of %.2f s; the main thread's worst \
            freeze went from %.2f s to %.3f s, and the cancel tap was handled after %.2f s instead of %.2f s.
            """, queued.maxConcurrent, seconds(queued, "totalSeconds"), seconds(plain, "totalSeconds"),
            plain.screen.maxStallSeconds, queued.screen.maxStallSeconds,
            seconds(queued, "cancelTapHandledSeconds"), seconds(plain, "cancelTapHandledSeconds"))
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
