import Foundation
import WorkshopCore

/// One way of reading the feed, run end to end on the main thread, and what it measured.
struct FeedRun {
    /// Where the fetch and the parse happen.
    enum Kind: Equatable, Sendable {
        /// Blocking fetch, then parse, both on the main thread.
        case noThread
        /// On a run-loop thread whose loop is written in `style`, parsing as `parsing` says.
        case threaded(LoopStyle, FeedDownload.Parsing)

        /// The name in the report.
        var name: String {
            switch self {
            case .noThread: "no-thread"
            case .threaded(.keepAlive, .streaming): "threaded"
            case .threaded(.keepAlive, .afterDownload): "threaded-after-download"
            case .threaded(let style, .streaming): "spin-\(style.rawValue)"
            case .threaded(let style, .afterDownload): "spin-\(style.rawValue)-after-download"
            }
        }
    }

    struct Settings {
        var items = FeedAPI.defaultItems
        /// Asks the server to break the feed (the `fault` query item).
        var fault: Fault?
        var output = ScreenOutput.silent
        /// How long the fetch may go without hearing from the server (URLSession's request timeout).
        var requestTimeoutSeconds = 15.0
        /// Upper bound for the whole run; a run that has not finished by then is reported as failed.
        var timeoutSeconds = 60.0
    }

    var kind: Kind
    var metrics: [(String, Metric)]
    var items: [FeedItem]
    var failure: String?
    var screen: ScreenMetrics
    /// Seconds from the start to the first item on the model, and to the last byte.
    var firstItemSeconds: Double?
    var downloadSeconds: Double?
    var probe: FeedDownload.Probe?
    var threadStats: RunLoopThread.Stats?

    /// Runs `kind` against `endpoint`. Call on the main thread: it runs the main run loop
    /// until the feed is shown (or `settings.timeoutSeconds` passed).
    static func perform(_ kind: Kind, endpoint: FixtureEndpoint, settings: Settings) -> FeedRun {
        requireMainQueue()
        let url = endpoint.url("/feed.xml?items=\(settings.items)" + (settings.fault.map { "&fault=\($0)" } ?? ""))
        let screen = Screen(title: "feed (\(kind.name))", output: settings.output)
        let controller = FeedController(screen: screen)
        let clock = Stopwatch()
        screen.start()
        controller.showLoading()

        var thread: RunLoopThread?
        var download: FeedDownload?
        var downloadEndedAt: Double?
        switch kind {
        case .noThread:
            // The main thread waits for the last byte, then parses: no frame until it is all done.
            do {
                let data = try HTTPFetcher(timeout: settings.requestTimeoutSeconds).fetchBlocking(url)
                downloadEndedAt = monotonicSeconds()
                controller.finish(FeedParser.parse(data) { controller.show($0) }.map(\.count))
            } catch {
                controller.fail(.fetch(error))
            }
        case .threaded(let style, let parsing):
            let networkThread = RunLoopThread(style: style)
            networkThread.start()
            let job = FeedDownload(url: url, parsing: parsing, thread: networkThread, controller: controller,
                                   timeout: settings.requestTimeoutSeconds)
            job.start()  // returns at once; the main thread goes back to drawing frames
            thread = networkThread
            download = job
        }
        let finished = MainLoop.run(timeout: settings.timeoutSeconds) { controller.isFinished }
        // Stop the network thread as soon as the work is over: a spinning loop spins until then.
        let stopped = thread?.stop() ?? true
        let total = clock.elapsed
        let measured = screen.stop()

        let probe = download?.probe.current
        downloadEndedAt = downloadEndedAt ?? probe?.downloadEndedAt
        let firstItem = controller.firstItemAt.map(clock.offset(of:))
        let downloadSeconds = downloadEndedAt.map(clock.offset(of:))
        var metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstContentSeconds ?? total)),
            ("firstItemSeconds", .seconds(measured.firstRowsSeconds ?? total)),
            ("downloadSeconds", .seconds(downloadSeconds ?? total)),
            ("itemsShown", .count(controller.items.count)),
            ("itemsBeforeDownloadEnded", .count(controller.itemsShown(before: downloadEndedAt))),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
        ]
        let stats = thread?.stats
        if let stats, let probe {
            metrics += [
                ("networkThreadCPUSeconds", .seconds(stats.cpuSeconds)),
                ("loopIterations", .count(stats.loopIterations)),
                ("wakeUps", .count(stats.wakeUps)),
                ("fetchCallbacks", .count(probe.callbacks)),
                ("callbacksOffNetworkThread", .count(probe.callbacksOffThread)),
                ("dataChunks", .count(probe.chunks)),
                ("medianCallbackDelaySeconds", .seconds(stats.medianDelaySeconds)),
                ("meanCallbackDelaySeconds", .seconds(stats.meanDelaySeconds)),
                ("maxCallbackDelaySeconds", .seconds(stats.maxDelaySeconds)),
            ]
        }
        var failure = controller.failure.map { "\($0)" }
        if !finished && failure == nil {
            failure = "gave up after \(Int(settings.timeoutSeconds)) s: \(controller.items.count) items shown"
        }
        if !stopped && failure == nil { failure = "the network thread did not stop" }
        return FeedRun(kind: kind, metrics: metrics, items: controller.items, failure: failure, screen: measured,
                       firstItemSeconds: firstItem, downloadSeconds: downloadSeconds, probe: probe, threadStats: stats)
    }
}
