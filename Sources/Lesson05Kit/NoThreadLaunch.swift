import WorkshopCore

/// Launch with everything on the main thread: fetch the orders, pre-load the products, parse.
/// Correct, and the Screen cannot draw a single frame until all of it is done.
public enum NoThreadLaunch {
    /// Runs on the main thread and returns when the launch is done, or at its first failure.
    @MainActor
    public static func run(_ app: ShopController, job: LaunchJob) {
        // The user's Cancel waits in the main queue while main is blocked: it is seen between
        // the steps, before each request, query and show.
        do {
            guard !app.isCancelled else { return }
            let fetched = try job.fetchOrders()
            guard !app.isCancelled else { return }
            app.ordersArrived(fetched)
            let preloaded = try job.preload()
            guard !app.isCancelled else { return }
            app.productsLoaded(preloaded)
            let parsed = try job.parse(fetched.body, with: preloaded.index)
            guard !app.isCancelled else { return }
            app.show(parsed)
        } catch {
            app.showFailure(error)
        }
    }
}
