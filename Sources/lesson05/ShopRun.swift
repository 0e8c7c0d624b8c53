import Foundation
import WorkshopCore

/// One variant: three launches of the app, sharing one on-disk HTTP cache that starts empty.
///
/// 1. first launch: nothing cached, the orders are downloaded in full;
/// 2. second launch, right after: the stored response is within its max-age, no request;
/// 3. the next day (the cache's clock is moved on 24 hours, nobody waits): max-age has run
///    out, so the app asks "If-None-Match" and the server answers 304 with no body.
struct ShopRun {
    static let launches: [(name: String, metric: String, laterBy: Double)] = [
        ("first launch", "firstLaunch", 0),
        ("second launch", "secondLaunch", 0),
        ("next-day launch", "nextDayLaunch", 86_400),
    ]

    var variant: Variant
    var launches: [LaunchRun]
    /// Set when the variant could not even start (no cache folder).
    var setupFailure: String?

    var first: LaunchRun? { launches.first }
    var failure: String? {
        setupFailure ?? launches.lazy.compactMap { run in run.failure.map { "\(run.name): \($0)" } }.first
    }
    /// Launches after the first that downloaded the whole body.
    var fullDownloadsAfterFirst: Int { launches.dropFirst().filter { $0.source == .downloaded }.count }

    /// Call on the main thread.
    static func perform(_ variant: Variant, setup: ShopSetup) -> ShopRun {
        requireMainQueue()
        let cacheDirectory = setup.directory.appendingPathComponent("http-cache-\(variant.rawValue)")
        try? FileManager.default.removeItem(at: cacheDirectory)
        let cache: HTTPDiskCache
        do { cache = try HTTPDiskCache(directory: cacheDirectory) } catch {
            return ShopRun(variant: variant, launches: [], setupFailure: "cannot make the cache folder: \(error)")
        }
        var runs: [LaunchRun] = []
        for launch in launches {
            let laterBy = launch.laterBy
            let fetcher = RevalidatingFetcher(cache: cache, now: { Date().addingTimeInterval(laterBy) })
            let run = LaunchRun.perform(variant, name: launch.name, setup: setup, fetcher: fetcher)
            runs.append(run)
            if run.failure != nil { break }
        }
        return ShopRun(variant: variant, launches: runs)
    }

    var metrics: [(String, Metric)] {
        guard let first else { return [] }
        var metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(launches.map(\.seconds).reduce(0, +))),
            ("firstContentSeconds", .seconds(first.screen.firstContentSeconds ?? first.seconds)),
            ("ordersShownSeconds", .seconds(first.screen.firstRowsSeconds ?? first.seconds)),
            ("mainThreadMaxStallSeconds", .seconds(launches.map(\.screen.maxStallSeconds).max() ?? 0)),
            ("droppedFrames", .count(launches.map(\.screen.droppedFrames).reduce(0, +))),
        ]
        // Part 1, from the first launch: the article's table.
        if let preloaded = first.preloaded, let parsed = first.parsed {
            metrics += [
                ("preloadSeconds", .seconds(preloaded.seconds)),
                ("naiveParseSeconds", .seconds(parsed.naiveSeconds)),
                ("cachedParseSeconds", .seconds(parsed.cachedSeconds)),
                ("naiveQueries", .count(parsed.naiveQueries)),
                ("cachedQueries", .count(preloaded.queries)),
            ]
        }
        // Part 2: what each launch asked of the server.
        for (launch, run) in zip(Self.launches, launches) {
            metrics.append(("\(launch.metric)Requests", .count(run.requests)))
            if let bytes = run.wireBytes { metrics.append(("\(launch.metric)WireBytes", .bytes(bytes))) }
            metrics.append(("\(launch.metric)Source", .text(run.source.map(Self.shortName) ?? "-")))
        }
        metrics.append(("fullDownloadsAfterFirstLaunch", .count(fullDownloadsAfterFirst)))
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
