import Dispatch
import WorkshopCore

/// Launch with the slow steps on queues: the Screen shows "loading..." at once, the products
/// are pre-loaded on a database queue *while* the orders download on a network queue, and
/// when both are in, a parse queue turns them into orders for the main queue to show.
///
/// What crosses queues is only ever a finished value: the body, the `ProductIndex`, the
/// orders. The dictionary is built on the database queue, then handed over as a `let`;
/// nobody can change it after that, and any number of threads may read a value nobody
/// writes. Swift checks the hand-over: `ProductIndex` is Sendable because `Product` is.
/// The database connections are not Sendable and stay on the queue that opened them.
public struct ThreadedLaunch: Sendable {
    let networkQueue = DispatchQueue.named("network-queue")
    let databaseQueue = DispatchQueue.named("database-queue")
    let parseQueue = DispatchQueue.named("parse-queue")

    public init() {}

    /// Called on the main thread; returns at once. The launch finishes later, on main.
    @MainActor
    public func start(_ app: ShopController, job: LaunchJob) {
        app.showLoading()
        // If the pre-load fails, the download is stopped rather than awaited.
        app.cancelOutstanding = { job.fetcher.cancel() }
        networkQueue.async {
            let result = Result { try job.fetchOrders() }
            DispatchQueue.main.async {
                switch result {
                case .success(let fetched): app.ordersArrived(fetched)
                case .failure(let error): app.showFailure(error)
                }
                parseWhenReady(app, job: job)
            }
        }
        databaseQueue.async {
            let result = Result { try job.preload() }
            DispatchQueue.main.async {
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
        parseQueue.async {
            let result = Result { try job.parse(body, with: index) }
            DispatchQueue.main.async {
                switch result {
                case .success(let parsed): app.show(parsed)
                case .failure(let error): app.showFailure(error)
                }
            }
        }
    }
}
