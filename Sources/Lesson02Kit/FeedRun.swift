import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a lesson 02 run leaves behind besides its metrics.
public struct FeedDetails: Sendable {
    /// The items on the model at the end, in order.
    public var items: [FeedItem]
    /// Seconds from the start to the first item on the model, and to the last byte.
    public var firstItemSeconds: Double?
    public var downloadSeconds: Double?
    /// What the network thread's callbacks saw, and what its loop cost (threaded kinds only).
    public var probe: ThreadedFeed.Probe?
    public var threadStats: RunLoopThread.Stats?
}

/// Runs one way of reading the feed and adds the lesson's own metrics.
public enum FeedRun {
    /// Where the fetch and the parse happen.
    public enum Kind: Equatable, Sendable {
        /// Blocking fetch, then parse, both on the main thread.
        case noThread
        /// On a run-loop thread whose loop is written in `style`, parsing as `parsing` says.
        case threaded(LoopStyle, ThreadedFeed.Parsing)
        /// No thread of our own: an AsyncStream awaited on the main actor, parsed in an actor.
        case async

        /// The name in the report.
        public var name: String {
            switch self {
            case .noThread: "no-thread"
            case .async: "async"
            case .threaded(.keepAlive, .streaming): "threaded"
            case .threaded(.keepAlive, .afterDownload): "threaded-after-download"
            case .threaded(let style, .streaming): "spin-\(style.rawValue)"
            case .threaded(let style, .afterDownload): "spin-\(style.rawValue)-after-download"
            }
        }

        /// One line saying what this run does.
        public var explanation: String {
            switch self {
            case .noThread:
                localized("no-thread: download the whole feed on the main thread, then parse it there")
            case .async:
                localized(
                    "async: no thread of our own; URLSession's delegate feeds an AsyncStream awaited on the main actor, an actor parses each chunk"
                )
            case .threaded(let style, let parsing):
                localized(
                    parsing == .streaming
                        ? "%1$@: network thread, %2$@; parse each chunk as it arrives"
                        : "%1$@: network thread, %2$@; parse after the download", name, style.explanation)
            }
        }
    }

    /// Call on the main thread: it serves the main run loop until the feed is shown, or the
    /// run failed, or `timeout` passed (default: the download's own time plus twice `--timeout`).
    @MainActor
    public static func perform(
        _ kind: Kind, endpoint: FixtureEndpoint, items: Int, output: ScreenOutput = .silent, timeout: Double? = nil,
        cancelAfter: Double? = nil
    ) -> VariantRun<FeedDetails> {
        let url = endpoint.url("/feed.xml?items=\(items)")
        let controller = FeedController(title: "feed (\(kind.name))", output: output)
        var thread: RunLoopThread?
        var download: ThreadedFeed?
        var tasks: AsyncFeed?
        var downloadEndedAt: Double?
        let began = monotonicSeconds()
        var run = VariantRun.perform(
            kind.name, controller: controller, timeout: timeout ?? worstCaseSeconds(endpoint, items: items),
            cancelAfter: cancelAfter, endpoint: endpoint, details: FeedDetails(items: controller.items)
        ) {
            controller.showLoading(localized("loading the feed..."))
            switch kind {
            case .noThread:
                downloadEndedAt = NoThreadFeed.run(url, timeout: endpoint.timeoutSeconds, controller: controller)
            case .threaded(let style, let parsing):
                let networkThread = RunLoopThread(style: style)
                networkThread.start()
                let job = ThreadedFeed(
                    url: url, parsing: parsing, thread: networkThread, controller: controller,
                    timeout: endpoint.timeoutSeconds)
                // A cancel (or the end of the run) reaches the job on main; the harness waits for
                // its fetch to end before stopping the thread.
                controller.onCancel { job.cancel() }
                controller.workInFlight = { job.isRunning }
                job.start()  // returns at once; the main thread goes back to drawing frames
                (thread, download) = (networkThread, job)
            case .async:
                let job = AsyncFeed(url: url, timeout: endpoint.timeoutSeconds, controller: controller)
                controller.startTask { await job.run() }  // returns at once, like job.start() above
                tasks = job
            }
        }
        // Stop the network thread as soon as the run is over (a spinning loop spins until then;
        // a failed run's fetch and parser are cancelled on the thread as it exits).
        if let thread, !thread.stop(), run.failure == nil { run.failure = localized("the network thread did not stop") }
        run.details.probe = download?.probe.current ?? tasks?.probe
        run.details.threadStats = thread?.stats ?? tasks?.stats
        downloadEndedAt = downloadEndedAt ?? run.details.probe?.downloadEndedAt
        run.details.firstItemSeconds = controller.firstItemAt.map { $0 - began }
        run.details.downloadSeconds = downloadEndedAt.map { $0 - began }

        let total = run.seconds(.totalSeconds) ?? 0
        run.metrics.insert(
            contentsOf: [
                (.firstItemSeconds, .seconds(run.screen.firstRowsSeconds ?? total)),
                (.downloadSeconds, .seconds(run.details.downloadSeconds ?? total)),
                (.itemsShown, .count(controller.items.count)),
                (.itemsBeforeDownloadEnded, .count(controller.itemsShown(before: downloadEndedAt))),
            ], at: 2)
        if let stats = run.details.threadStats, let probe = run.details.probe {
            run.metrics += [
                (.networkThreadCPUSeconds, .seconds(stats.cpuSeconds)),
                (.loopIterations, .count(stats.loopIterations)),
                (.wakeUps, .count(stats.wakeUps)),
                (.fetchCallbacks, .count(probe.callbacks)),
                (.callbacksOffNetworkThread, .count(probe.callbacksOffThread)),
                (.dataChunks, .count(probe.chunks)),
                (.medianCallbackDelaySeconds, .seconds(stats.medianDelaySeconds)),
                (.meanCallbackDelaySeconds, .seconds(stats.meanDelaySeconds)),
                (.maxCallbackDelaySeconds, .seconds(stats.maxDelaySeconds)),
            ]
        }
        return run
    }

    /// What the numbers say, in up to three sentences: push parsing against no thread, against
    /// parsing after the download, and a sleeping loop against a spinning one.
    public static func takeaway(_ runs: [VariantRun<FeedDetails>]) -> String {
        // Lesson 02 runs more kinds than the three variants ("threaded-after-download"): found by name.
        func run(_ name: String) -> VariantRun<FeedDetails>? { runs.first { $0.name == name } }
        func firstItem(_ run: VariantRun<FeedDetails>) -> Double { run.screen.firstRowsSeconds ?? 0 }
        var lines: [String] = []
        if let plain = run("no-thread"), let threaded = run("threaded") {
            lines.append(
                localized(
                    "The first item was on screen after %.2f s on the run-loop thread instead of %.2f s, and the worst freeze went from %.2f s to %.3f s.",
                    firstItem(threaded), firstItem(plain), plain.screen.maxStallSeconds,
                    threaded.screen.maxStallSeconds))
        }
        if let threaded = run("threaded"), let after = run("threaded-after-download") {
            lines.append(
                localized(
                    "Parsing after the download put the first item at %.2f s instead of %.2f s.", firstItem(after),
                    firstItem(threaded)))
        }
        if let sleeping = run("threaded")?.details.threadStats,
            let spinning = run("spin-no-source")?.details.threadStats,
            spinning.cpuSeconds > 0
        {
            lines.append(
                localized(
                    "The loop with no source spun %d times and burned %.2f s of CPU; the keep-alive loop used %.4f s (%.1f%%) for the same fetch.",
                    spinning.loopIterations, spinning.cpuSeconds, sleeping.cpuSeconds,
                    100 * sleeping.cpuSeconds / spinning.cpuSeconds))
        }
        if let tasks = run("async"), let handling = tasks.details.threadStats {
            let (first, freeze, chunks) = (
                firstItem(tasks), tasks.screen.maxStallSeconds, tasks.details.probe?.chunks ?? 0
            )
            if let threaded = run("threaded"), let sleeping = threaded.details.threadStats {
                lines.append(
                    localized(
                        "async, with no thread of our own: first item after %1$.2f s, worst freeze %2$.3f s, and taking in the %3$d chunks cost %4$.4f s of CPU (the sleeping run-loop thread: %5$.4f s); %6$@.",
                        first, freeze, chunks, handling.cpuSeconds, sleeping.cpuSeconds,
                        VariantComparison.verdict(tasks, against: threaded, otherName: localized("the run-loop thread"))
                    ))
            } else {
                lines.append(
                    localized(
                        "async, with no thread of our own: first item after %.2f s, worst freeze %.3f s, and taking in the %d chunks cost %.4f s of CPU.",
                        first, freeze, chunks, handling.cpuSeconds))
            }
        }
        return lines.isEmpty
            ? localized("Run all three variants (the default) to compare them.") : sentences(lines)
    }

    /// The feed's own download time at the link's bandwidth, plus twice the request timeout:
    /// a run still going after that is stuck.
    static func worstCaseSeconds(_ endpoint: FixtureEndpoint, items: Int) -> Double {
        let bandwidth = endpoint.knobs.bandwidthBytesPerSecond
        let bytes = FeedAPI.feed(items: items, baseURL: endpoint.baseURL.absoluteString).utf8.count
        let transfer = bandwidth == 0 ? 0 : Double(bytes) / Double(bandwidth)
        return 10 + endpoint.knobs.latencySeconds + transfer + 2 * endpoint.timeoutSeconds
    }
}
