import WorkshopCore

/// Launch with everything on the main thread: fetch the orders, pre-load the products, parse.
/// Correct, and the Screen cannot draw a single frame until all of it is done.
public enum NoThreadLaunch {
    /// Runs on the main thread and returns when the launch is done, or at its first failure.
    @MainActor
    public static func run(_ app: ShopController, job: LaunchJob) {
        do {
            let fetched = try job.fetchOrders()
            app.ordersArrived(fetched)
            let preloaded = try job.preload()
            app.productsLoaded(preloaded)
            app.show(try job.parse(fetched.body, with: preloaded.index))
        } catch {
            app.showFailure(error)
        }
    }
}
