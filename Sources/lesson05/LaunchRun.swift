import Foundation
import WorkshopCore

/// What every launch shares: the server, the local database, the sizes.
struct ShopSetup: Sendable {
    var endpoint: FixtureEndpoint
    /// The SQLite file holding the products (made by `ShopSetup.prepare`).
    var databasePath: String
    /// Where each variant keeps its HTTP cache (one fresh folder per variant).
    var directory: URL
    var products: Int
    var orders: Int
    var output = ScreenOutput.silent
    /// Upper bound for one launch; a launch that has not finished by then is reported as failed.
    var launchTimeoutSeconds = 60.0

    var ordersURL: URL { endpoint.url("/orders?count=\(orders)&products=\(products)") }

    /// Makes a scratch folder and the products database in it (setup, not measured).
    static func prepare(endpoint: FixtureEndpoint, products: Int, orders: Int) throws -> ShopSetup {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lesson05-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("shop.sqlite").path
        try ProductTable.create(at: path, products: CatalogAPI.products(count: products))
        return ShopSetup(endpoint: endpoint, databasePath: path, directory: directory, products: products, orders: orders)
    }

    func removeFiles() { try? FileManager.default.removeItem(at: directory) }
}

/// One launch of the app, run end to end on the main thread, and what it measured.
struct LaunchRun {
    var name: String
    var source: RevalidatingFetcher.Source?
    var preloaded: LaunchJob.Preloaded?
    var parsed: LaunchJob.Parsed?
    var failure: String?
    /// Requests the server saw and bytes it wrote during this launch (nil with `--server`).
    var serverRequests: Int?
    var wireBytes: Int?
    var seconds: Double
    var screen: ScreenMetrics
    var trace: Trace
    var rows: [TableRow]

    /// Runs one launch as `variant`. Call on the main thread: it runs the main run loop until
    /// the launch is done. `fetcher` carries the cache (and the clock the cache believes).
    static func perform(_ variant: Variant, name: String, setup: ShopSetup, fetcher: RevalidatingFetcher) -> LaunchRun {
        requireMainQueue()
        let before = setup.endpoint.server?.stats
        let trace = Trace()
        let screen = Screen(title: "shop, \(name) (\(variant.rawValue))", output: setup.output)
        let app = ShopController(screen: screen, trace: trace)
        let job = LaunchJob(databasePath: setup.databasePath, ordersURL: setup.ordersURL, fetcher: fetcher, trace: trace)
        let clock = Stopwatch()
        screen.start()
        if variant == .threaded {
            ThreadedLaunch().start(app, job: job)
        } else {
            NoThreadLaunch.run(app, job: job)
        }
        let finished = MainLoop.run(timeout: setup.launchTimeoutSeconds) { app.isFinished }
        let seconds = clock.elapsed
        let measured = screen.stop()
        let after = setup.endpoint.server?.stats
        var failure = app.failure
        if !finished && failure == nil { failure = "gave up after \(Int(setup.launchTimeoutSeconds)) s" }
        return LaunchRun(name: name, source: app.fetched?.source, preloaded: app.preloaded, parsed: app.parsed,
                         failure: failure,
                         serverRequests: after.flatMap { a in before.map { a.requests - $0.requests } },
                         wireBytes: after.flatMap { a in before.map { a.wireBytes - $0.wireBytes } },
                         seconds: seconds, screen: measured, trace: trace, rows: screen.table.rows)
    }

    /// Requests this launch sent: the server's count when it is ours, else the client's.
    var requests: Int { serverRequests ?? (source == .fresh || source == nil ? 0 : 1) }
}
