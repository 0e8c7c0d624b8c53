import Dispatch
import WorkshopCore
import WorkshopServer

/// Launch with the slow steps on queues: the Screen shows "loading..." at once, the products
/// are pre-loaded on a database queue *while* the orders download on a network queue, and
/// when both are in, a parse queue turns them into orders for the main queue to show.
///
/// What crosses queues is only ever a finished value: the body, the `ProductIndex`, the
/// orders. The dictionary is built on the database queue, then handed over as a `let`;
/// nobody can change it after that, and any number of threads may read a value nobody
/// writes. Swift checks the hand-over: `ProductIndex` is Sendable because `Product` is.
/// The database connections are not Sendable and stay on the queue that opened them.
///
/// A cancel: every block checks one `CancelToken` before its side effect (the request, a
/// query, a show on main); the token also stops the request in flight. A dispatch group
/// counts the blocks still queued or running, so the run knows when the last one has ended.
public struct ThreadedLaunch: Sendable {
    let networkQueue = DispatchQueue.named("network-queue")
    let databaseQueue = DispatchQueue.named("database-queue")
    let parseQueue = DispatchQueue.named("parse-queue")
    let token = CancelToken()
    let work = DispatchGroup()

    public init() {}

    /// Called on the main thread; returns at once. The launch finishes later, on main.
    @MainActor
    public func start(_ app: ShopController, job: LaunchJob) {
        app.onCancel { token.cancel() }
        app.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        token.onCancel { job.fetcher.cancel() }  // the request in flight, if any
        app.showLoading()
        // If the pre-load fails, the download is stopped rather than awaited.
        app.cancelOutstanding = { job.fetcher.cancel() }
        networkQueue.async(group: work) {
            guard !token.isCancelled else { return }  // before the request
            let result = Result { try job.fetchOrders() }
            DispatchQueue.main.async(group: work) {
                guard !token.isCancelled else { return }  // before the show: too late is no news
                switch result {
                case .success(let fetched): app.ordersArrived(fetched)
                case .failure(let error): app.showFailure(error)
                }
                parseWhenReady(app, job: job)
            }
        }
        databaseQueue.async(group: work) {
            guard !token.isCancelled else { return }  // before the query
            let result = Result { try job.preload() }
            DispatchQueue.main.async(group: work) {
                guard !token.isCancelled else { return }
                switch result {
                case .success(let preloaded): app.productsLoaded(preloaded)
                case .failure(let error): app.showFailure(error)
                }
                parseWhenReady(app, job: job)
            }
        }
    }

    /// On main, after either step: once both the body and the index are in, parse off main.
    @MainActor
    func parseWhenReady(_ app: ShopController, job: LaunchJob) {
        guard app.failure == nil, !app.parseStarted, let body = app.fetched?.body, let index = app.preloaded?.index
        else { return }
        app.parseStarted = true
        parseQueue.async(group: work) {
            guard !token.isCancelled else { return }  // before the queries
            let result = Result { try job.parse(body, with: index) }
            DispatchQueue.main.async(group: work) {
                guard !token.isCancelled else { return }  // before the show
                switch result {
                case .success(let parsed): app.show(parsed)
                case .failure(let error): app.showFailure(error)
                }
            }
        }
    }
}
