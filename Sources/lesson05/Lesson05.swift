import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson05: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson05",
        abstract: "Caching: pre-load the local database into a dictionary once, and let a relaunch revalidate instead of downloading again.",
        discussion: """
        Each variant launches a small shop app three times: it fetches orders through an \
        on-disk HTTP cache (max-age, then ETag and 304) and looks up each order's product in \
        SQLite, one query per order and then in a dictionary pre-loaded with one query. The \
        no-thread variant does all of it on the main thread; the threaded one pre-loads and \
        downloads on queues while the Screen shows "loading...".
        Source: "Core Data のパフォーマンスをちょっとだけ調べてみた" (2010-05-30) and \
        "iPhoneアプリのサクサク感が出ない件について" (the lesson text gives the details).
        """
    )

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions

    @Option(help: ArgumentHelp("Products in the local database (100-200000).", valueName: "k"))
    var products = 5_000

    @Option(help: ArgumentHelp("Orders the API returns, each naming one product (1-50000).", valueName: "m"))
    var orders = 3_000

    @Option(help: ArgumentHelp("Cache-Control max-age the in-process server sends (0-3600 s; 0 sends none, so every relaunch revalidates).", valueName: "seconds"))
    var maxAge = 300

    static let defaultLatency = 0.2
    static let defaultBandwidth = 100_000

    func validate() throws {
        guard (100...200_000).contains(products) else {
            throw ValidationError("--products must be between 100 and 200000 (got \(products))")
        }
        guard (1...50_000).contains(orders) else { throw ValidationError("--orders must be between 1 and 50000 (got \(orders))") }
        guard (0...3_600).contains(maxAge) else { throw ValidationError("--max-age must be between 0 and 3600 (got \(maxAge))") }
    }

    func run() throws {
        let endpoint: FixtureEndpoint
        do {
            endpoint = try network.makeAPI(defaultLatency: Self.defaultLatency, defaultBandwidth: Self.defaultBandwidth)
        } catch {
            throw LessonFailure("could not start the fixture server: \(error)")
        }
        defer { endpoint.stop() }
        endpoint.server?.knobs.maxAgeSeconds = maxAge > 0 ? maxAge : nil
        var setup: ShopSetup
        do { setup = try ShopSetup.prepare(endpoint: endpoint, products: products, orders: orders) } catch {
            throw LessonFailure("could not make the products database: \(error)")
        }
        defer { setup.removeFiles() }
        setup.output = .automatic(json: common.json)

        let human = !common.json
        if human {
            say("""
            Lesson 05: caching. \(orders) orders from \(setup.ordersURL.absoluteString),
            each naming one of \(products) products kept in SQLite (\(setup.databasePath)).
            Server: latency \(endpoint.knobs.latencySeconds) s, bandwidth \(endpoint.knobs.bandwidthBytesPerSecond == 0 ? "unlimited" : "\(endpoint.knobs.bandwidthBytesPerSecond) B/s"), ETag always, \(endpoint.server == nil ? "its own Cache-Control" : (maxAge > 0 ? "Cache-Control: max-age=\(maxAge)" : "no Cache-Control")).
            HTTP cache: a small on-disk cache (HTTPDiskCache); URLCache on Linux stores nothing.

            """)
        }
        var runs: [ShopRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: fetch, pre-load and parse, all on the main thread; three launches"
                    : "threaded: fetch on network-queue while database-queue pre-loads, parse on parse-queue, UI on main; three launches")
            }
            let run = ShopRun.perform(variant, setup: setup)
            if human {
                for launch in run.launches {
                    say("  \(launch.name): orders from \(launch.source?.rawValue ?? "nowhere"), \(launch.requests) request(s)"
                        + (launch.wireBytes.map { ", \($0) bytes on the wire" } ?? "")
                        + (launch.failure.map { ", failed: \($0)" } ?? ""))
                }
                if let first = run.first {
                    say("\nFirst launch, where the time went (each lane is a thread or queue):\n" + first.trace.timeline() + "\n")
                }
            }
            runs.append(run)
        }

        let report = LessonReport(
            lesson: "05", title: "Caching: pre-loaded rows and HTTP revalidation",
            parameters: [("products", .count(products)), ("orders", .count(orders)),
                         ("maxAgeSeconds", .count(maxAge)),
                         ("latencySeconds", .seconds(endpoint.knobs.latencySeconds)),
                         ("bandwidthBytesPerSecond", .count(endpoint.knobs.bandwidthBytesPerSecond)),
                         ("httpCache", .text("HTTPDiskCache (on disk; URLCache does not cache on Linux)")),
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

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [ShopRun]) -> String {
        guard let run = runs.first(where: { $0.failure == nil }),
              let parsed = run.first?.parsed, let preloaded = run.first?.preloaded else {
            return "No launch finished; see the error above."
        }
        var text = String(format: """
            Pre-loading %d products took %.3f s (1 query) and cut parsing %d orders from %.3f s \
            (%d queries) to %.3f s;
            """, preloaded.index.count, preloaded.seconds, parsed.orders.count, parsed.naiveSeconds,
            parsed.naiveQueries, parsed.cachedSeconds)
        text += " the relaunches sent \(run.launches.dropFirst().map { String($0.requests) }.joined(separator: " and ")) "
            + "request(s) instead of a full download"
        let bytes = run.launches.compactMap(\.wireBytes)
        // Only an in-process server can count the bytes it wrote; with --server, say nothing.
        text += bytes.count == run.launches.count ? " (wire: \(bytes.map { "\($0) B" }.joined(separator: " / ")))." : "."
        if let plain = runs.first(where: { $0.variant == .noThread }), let queued = runs.first(where: { $0.variant == .threaded }) {
            text += String(format: " Off the main thread, the worst freeze went from %.2f s to %.3f s.",
                           plain.launches.map(\.screen.maxStallSeconds).max() ?? 0,
                           queued.launches.map(\.screen.maxStallSeconds).max() ?? 0)
        }
        return text
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
