import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// The async variant of a launch: the threaded variant's job in Swift 6. A task on the main
/// actor shows "loading...", then a task group runs the two slow steps side by side, the
/// download (awaited: no thread waits for the network) and the pre-load (on the
/// `ProductCache` actor); the parse runs on the actor too. Each result comes back to the main
/// actor by `await`, where the app shows it. No `DispatchQueue.main`; the one queue is the
/// actor's own executor (`QueueExecutor`), which keeps its blocking SQLite calls off Swift's pool.
public struct AsyncLaunch: Sendable {
    public init() {}

    /// What the two steps of the group hand back, in whichever order they finish.
    enum Step: Sendable {
        case orders(RevalidatingFetcher.Outcome)
        case products(LaunchJob.Preloaded)
    }

    /// Called on the main thread; returns at once. The launch finishes later, on the main actor.
    @MainActor
    public func start(_ app: ShopController, job: LaunchJob) {
        app.showLoading()
        app.startTask { await launch(app, job: job) }
    }

    @MainActor
    func launch(_ app: ShopController, job: LaunchJob) async {
        let products = ProductCache(databasePath: job.databasePath, trace: job.trace)
        do {
            // If one step throws, `for try await` rethrows it; the error leaving this body makes the
            // group cancel the other step: a pre-load failure stops the download.
            try await withThrowingTaskGroup(of: Step.self) { group in
                group.addTask { .orders(try await job.fetchOrdersAsync()) }
                group.addTask { .products(try await products.preload()) }
                for try await step in group {
                    // After the await, before the show: a step that ended just before a cancel is no news.
                    guard !Task.isCancelled else { return group.cancelAll() }
                    switch step {
                    case .orders(let fetched): app.ordersArrived(fetched)
                    case .products(let preloaded): app.productsLoaded(preloaded)
                    }
                }
            }
            guard let body = app.fetched?.body, !Task.isCancelled else { return }
            let parsed = try await products.parse(body)
            guard !Task.isCancelled else { return }  // parsed just before the cancel: dropped, not shown
            app.show(parsed)
        } catch {
            app.showFailure(error)
        }
    }
}

extension LaunchJob {
    /// GET /orders through the on-disk HTTP cache, awaited: maybe no request, maybe a 304,
    /// maybe a download. The cache file is read and written in `get`, which is `@concurrent`.
    func fetchOrdersAsync() async throws(FetchError) -> RevalidatingFetcher.Outcome {
        try await trace.measure("fetch orders", lane: Trace.awaitingLane) { () async throws(FetchError) in
            try await fetcher.get(ordersURL)
        }
    }
}

extension RevalidatingFetcher {
    /// The async `get`: the same cache rules as the blocking one (`plan`, then `finish`), with
    /// the request awaited. Cancelling the task cancels the request. `@concurrent`: `plan` and
    /// `finish` read and write the cache file, work that must not run on a caller's actor (with
    /// `NonisolatedNonsendingByDefault`, SE-0461, which Package.swift turns on, a plain
    /// `nonisolated` async function would run on its caller's actor, such as a main-actor screen).
    @concurrent
    func get(_ url: URL) async throws(FetchError) -> Outcome {
        switch plan(url) {
        case .reuse(let outcome): return outcome
        case .send(let request, let stored):
            // Not `session.data(for:)`: cancelling that can deadlock on Linux (see `answer(for:)`).
            let answer = await session.answer(for: request)
            if answer.error is CancellationError || Task.isCancelled { throw .cancelled(url: url.absoluteString) }
            if let error = answer.error {
                throw FetchError(urlSessionError: error, url: url.absoluteString, timeout: timeout)
            }
            guard let http = answer.response as? HTTPURLResponse else { throw .notHTTP(url: url.absoluteString) }
            return try finish(
                url, stored: stored, status: http.statusCode, headers: Self.headers(of: http),
                body: Array(answer.data ?? Data()))
        }
    }
}
