import Foundation
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// One launch of the app and what it left behind.
public struct Launch: Sendable {
    public var name: String
    public var source: RevalidatingFetcher.Source?
    public var preloaded: LaunchJob.Preloaded?
    public var parsed: LaunchJob.Parsed?
    /// Requests the server saw and bytes it wrote during this launch (nil with `--server`).
    public var serverRequests: Int?
    public var wireBytes: Int?
    /// The rows on the Screen at the end.
    public var rows: [TableRow]
    public var seconds = 0.0
    public var screen: ScreenMetrics?
    public var failure: String?

    /// Requests this launch sent: the server's count when it is ours, else the client's.
    public var requests: Int { serverRequests ?? (source == .fresh || source == nil ? 0 : 1) }
}

/// What a lesson 05 run leaves behind besides its metrics: its launches, in order.
public struct ShopDetails: Sendable {
    public var launches: [Launch]
    public var first: Launch? { launches.first }
    /// Launches after the first that downloaded the whole body.
    public var fullDownloadsAfterFirst: Int { launches.dropFirst().filter { $0.source == .downloaded }.count }
}

/// One variant: three launches of the app, sharing one on-disk HTTP cache that starts empty.
///
/// 1. first launch: nothing cached, the orders are downloaded in full;
/// 2. second launch, right after: the stored response is within its max-age, no request;
/// 3. the next day (the cache's clock is moved on 24 hours, nobody waits): max-age has run
///    out, so the app asks "If-None-Match" and the server answers 304 with no body.
public enum ShopRun {
    /// The three launches and the names of their figures: requests, bytes on the wire, and
    /// where the orders came from.
    static let launches: [(name: String, metrics: LaunchMetrics, laterBy: Double)] = [
        ("first launch", LaunchMetrics(.firstLaunchRequests, .firstLaunchWireBytes, .firstLaunchSource), 0),
        ("second launch", LaunchMetrics(.secondLaunchRequests, .secondLaunchWireBytes, .secondLaunchSource), 0),
        (
            "next-day launch", LaunchMetrics(.nextDayLaunchRequests, .nextDayLaunchWireBytes, .nextDayLaunchSource),
            86_400
        ),
    ]

    struct LaunchMetrics {
        let requests: MetricName
        let wireBytes: MetricName
        let source: MetricName
        init(_ requests: MetricName, _ wireBytes: MetricName, _ source: MetricName) {
            (self.requests, self.wireBytes, self.source) = (requests, wireBytes, source)
        }
    }

    /// Call on the main thread: each launch serves the main run loop until it is done. A
    /// failed launch ends the variant (no relaunch after it).
    @MainActor
    /// `cancelAfter`: the user taps Cancel that many seconds into the first launch (the long
    /// one); a cancelled launch, like a failed one, ends the variant.
    public static func perform(
        _ variant: Variant, setup: ShopSetup, output: ScreenOutput = .silent, cancelAfter: Double? = nil
    ) -> VariantRun<ShopDetails> {
        let folder = setup.scratch.url.appendingPathComponent("http-cache-\(variant.rawValue)")
        try? FileManager.default.removeItem(at: folder)  // every variant starts with an empty cache
        let cache = HTTPDiskCache(directory: folder)
        var runs: [VariantRun<Launch>] = []
        for launch in launches {
            let laterBy = launch.laterBy
            let fetcher = RevalidatingFetcher(
                cache: cache, timeout: setup.endpoint.timeoutSeconds, now: { Date().addingTimeInterval(laterBy) })
            let cancel = runs.isEmpty ? cancelAfter : nil
            runs.append(
                perform(variant, launch.name, setup: setup, fetcher: fetcher, output: output, cancelAfter: cancel))
            if runs.last?.failure != nil || runs.last?.seconds(.cancelHandledSeconds) != nil { break }
        }
        return combined(variant, runs)
    }

    /// One launch as `variant`, with a new app (controller and Screen) over the shared cache.
    @MainActor
    static func perform(
        _ variant: Variant, _ name: String, setup: ShopSetup, fetcher: RevalidatingFetcher, output: ScreenOutput,
        cancelAfter: Double?
    ) -> VariantRun<Launch> {
        let before = setup.endpoint.server?.stats
        let app = ShopController(title: localized("shop, %@ (%@)", localized(name), variant.rawValue), output: output)
        let job = LaunchJob(
            databasePath: setup.databasePath, ordersURL: setup.ordersURL, fetcher: fetcher, trace: app.trace)
        var run = VariantRun.perform(
            name, controller: app, timeout: setup.launchTimeoutSeconds, cancelAfter: cancelAfter,
            endpoint: setup.endpoint,
            details: Launch(
                name: name, source: app.fetched?.source, preloaded: app.preloaded, parsed: app.parsed,
                rows: app.screen.table.rows)
        ) {
            switch variant {
            case .threaded: ThreadedLaunch().start(app, job: job)
            case .async: AsyncLaunch().start(app, job: job)
            case .noThread: NoThreadLaunch.run(app, job: job)
            }
        }
        // The launch's work has ended (the harness waited for it): only now is the session torn down.
        fetcher.invalidate()
        if let before, let server = setup.endpoint.server {
            // The server counts a response's bytes once its write has returned, a moment after
            // the app has them: wait (briefly, bounded) until every request of this launch is
            // accounted for, or the bytes of the last one would be missing from the figure.
            server.waitForStats(timeout: 2) { now in
                let finished = { (s: ServerStats) in s.responses + s.writeFailures + s.faulted }
                return finished(now) - finished(before) >= now.requests - before.requests
            }
            let after = server.stats
            run.details.serverRequests = after.requests - before.requests
            run.details.wireBytes = after.wireBytes - before.wireBytes
        }
        run.details.seconds = run.seconds(.totalSeconds) ?? 0
        run.details.screen = run.screen
        run.details.failure = run.failure
        return run
    }

    /// The variant's run: every launch's figures; the first launch's Screen and timeline.
    static func combined(_ variant: Variant, _ runs: [VariantRun<Launch>]) -> VariantRun<ShopDetails> {
        let details = ShopDetails(launches: runs.map(\.details))
        let first = runs[0]
        var run = VariantRun(
            name: variant.rawValue, metrics: metrics(details), failure: nil, trace: first.trace, screen: first.screen,
            details: details, gotStarted: first.gotStarted, traceOffset: first.traceOffset)
        // A cancel lands in the first launch: its figures are the variant's.
        let cancelKeys: Set<MetricName> = [
            .cancelAtSeconds, .cancelHandledSeconds, .stoppedAfterCancelSeconds, .requestsAfterCancel, .rowsAfterCancel,
        ]
        run.metrics += first.metrics.filter { cancelKeys.contains($0.0) }
        run.failure =
            runs.lazy.compactMap { launch in launch.failure.map { "\(localized(launch.name)): \($0)" } }
            .first
        if run.gotStarted {
            run.notes =
                details.launches.map { launch in
                    "  "
                        + localized(
                            launch.requests == 1
                                ? "%1$@: orders from %2$@, %3$d request" : "%1$@: orders from %2$@, %3$d requests",
                            localized(launch.name), localized(launch.source?.rawValue ?? "nowhere"), launch.requests)
                        + (launch.wireBytes.map { localized(", %d bytes on the wire", $0) } ?? "")
                } + ["  " + localized("(the timeline below is the first launch's)")]
        }
        // The first launch's only notes are the harness's cancel summary ("cancelled at ...", or
        // "finished before the cancel ..."): taken whole, whatever language it is written in.
        run.notes += first.notes
        return run
    }
}

extension ShopRun {
    /// The four every lesson reports, over the three launches (first content and orders shown:
    /// the first launch's); the article's table, from the first launch; each launch's requests.
    static func metrics(_ details: ShopDetails) -> [(MetricName, Metric)] {
        guard let first = details.first, let screen = first.screen else { return [] }
        let launches = details.launches
        var metrics: [(MetricName, Metric)] = [
            (.totalSeconds, .seconds(launches.map(\.seconds).reduce(0, +))),
            (.firstContentSeconds, .seconds(screen.firstContentSeconds ?? first.seconds)),
            (.ordersShownSeconds, .seconds(screen.firstRowsSeconds ?? first.seconds)),
            (.mainThreadMaxStallSeconds, .seconds(launches.compactMap(\.screen?.maxStallSeconds).max() ?? 0)),
            (.droppedFrames, .count(launches.compactMap(\.screen?.droppedFrames).reduce(0, +))),
        ]
        // Apple's hangs and hitch rate over the three launches: every launch's freezes, over
        // the time of all three (each launch is one stretch of the app in use).
        var everyLaunch = screen
        everyLaunch.stalls = launches.compactMap(\.screen).flatMap(\.stalls)
        metrics += everyLaunch.appleFigures(runSeconds: launches.map(\.seconds).reduce(0, +))
        // Part 1, from the first launch: the article's table.
        if let preloaded = first.preloaded, let parsed = first.parsed {
            metrics += [
                (.preloadSeconds, .seconds(preloaded.seconds)),
                (.naiveParseSeconds, .seconds(parsed.naiveSeconds)),
                (.cachedParseSeconds, .seconds(parsed.cachedSeconds)),
                (.naiveQueries, .count(parsed.naiveQueries)),
                (.cachedQueries, .count(preloaded.queries)),
            ]
        }
        // Part 2: what each launch asked of the server.
        for (launch, run) in zip(Self.launches, launches) {
            metrics.append((launch.metrics.requests, .count(run.requests)))
            if let bytes = run.wireBytes { metrics.append((launch.metrics.wireBytes, .bytes(bytes))) }
            metrics.append((launch.metrics.source, .text(run.source.map(shortName) ?? "-")))
        }
        metrics.append((.fullDownloadsAfterFirstLaunch, .count(details.fullDownloadsAfterFirst)))
        return metrics
    }

    static func shortName(_ source: RevalidatingFetcher.Source) -> String {
        switch source {
        case .fresh: "fresh"
        case .revalidated: "304"
        case .downloaded: "200"
        }
    }
}

extension ShopRun {
    /// What the numbers mean, from the first variant's first launch and every variant's worst
    /// freeze (and the async variant's total time against the threaded one's).
    public static func takeaway(_ runs: [VariantRun<ShopDetails>]) -> String {
        guard let launches = runs.first?.details.launches, let parsed = launches.first?.parsed,
            let preloaded = launches.first?.preloaded
        else { return "" }
        var text = localized(
            """
            Pre-loading %d products took %.3f s (1 query) and cut parsing %d orders from %.3f s \
            (%d queries) to %.3f s;
            """, preloaded.index.count, preloaded.seconds, parsed.orders.count, parsed.naiveSeconds,
            parsed.naiveQueries, parsed.cachedSeconds)
        let requests = launches.dropFirst().map {
            localized($0.requests == 1 ? "%d request" : "%d requests", $0.requests)
        }
        text += localized(" the relaunches sent %@ instead of a full download", listed(requests))
        // Only an in-process server can count the bytes it wrote; with --server, say nothing.
        let bytes = launches.compactMap(\.wireBytes)
        text +=
            bytes.count == launches.count
            ? localized(" (wire: %@).", bytes.map { "\($0) B" }.joined(separator: " / ")) : localized(".")
        let stall = { (run: VariantRun<ShopDetails>) in run.seconds(.mainThreadMaxStallSeconds) ?? 0 }
        let total = { (run: VariantRun<ShopDetails>) in run.seconds(.totalSeconds) ?? 0 }
        let (plain, queued) = (runs.run(.noThread), runs.run(.threaded))
        if let plain, let queued {
            text += localized(
                " Off the main thread, the worst freeze went from %.2f s to %.3f s.", stall(plain), stall(queued))
        }
        if let tasks = runs.run(.async) {
            var awaited = localized(" async: worst freeze %.3f s, total %.2f s", stall(tasks), total(tasks))
            if let queued {
                awaited += localized(
                    ", %@", VariantComparison.verdict(tasks, against: queued, otherName: localized("the queues")))
            } else if let plain {
                awaited += localized(" against the main thread's %.2f s freeze", stall(plain))
            }
            text += localized("%@, with an actor instead of a database queue.", awaited)
        }
        return text
    }
}
