import WorkshopCore

/// The "view controller" of the shop app: it owns the Screen and shows loading, the orders or
/// an error. Like a UIViewController it lives on the main queue (every method checks), so
/// the state it keeps between steps needs no lock.
final class ShopController: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    let trace: Trace
    /// How many orders get a row on the Screen (the rest are counted in the status line).
    let visibleRows = 12

    private(set) var fetched: RevalidatingFetcher.Outcome?
    private(set) var preloaded: LaunchJob.Preloaded?
    private(set) var parsed: LaunchJob.Parsed?
    private(set) var failure: String?
    var parseStarted = false

    init(screen: Screen, trace: Trace) {
        self.screen = screen
        self.trace = trace
    }

    var isFinished: Bool {
        requireMainQueue()
        return failure != nil || parsed != nil
    }

    func showLoading() {
        requireMainQueue()
        screen.table.placeholder = "loading..."
    }

    func ordersArrived(_ outcome: RevalidatingFetcher.Outcome) {
        requireMainQueue()
        fetched = outcome
        screen.status = "orders: \(outcome.source.rawValue)"
    }

    func productsLoaded(_ preloaded: LaunchJob.Preloaded) {
        requireMainQueue()
        self.preloaded = preloaded
    }

    func show(_ parsed: LaunchJob.Parsed) {
        requireMainQueue()
        self.parsed = parsed
        let orders = parsed.orders
        trace.measure("reload") {
            screen.table.reloadData(count: min(visibleRows, orders.count)) { index in
                let order = orders[index]
                return TableRow(text: "order \(order.id): \(order.quantity) x \(order.product.name)  ¥\(order.totalYen)",
                                detail: order.product.code)
            }
        }
        let total = orders.reduce(0) { $0 + $1.totalYen }
        screen.status = "\(orders.count) orders, ¥\(total) in all (orders: \(fetched?.source.rawValue ?? "?"))"
    }

    func showFailure(_ error: Error) {
        requireMainQueue()
        failure = "\(error)"
        screen.status = "error: \(error)"
    }
}
