import WorkshopCore

/// The "view controller" of the shop app: it shows loading, the orders or an error, and keeps
/// what the launch's steps handed it. `@MainActor`, like a UIViewController: only main-thread
/// code may call it, so the state it keeps between steps needs no lock.
@MainActor
public final class ShopController: LessonController {
    /// How many orders get a row on the Screen (the rest are counted in the status line).
    let visibleRows = 12

    public private(set) var fetched: RevalidatingFetcher.Outcome?
    public private(set) var preloaded: LaunchJob.Preloaded?
    public private(set) var parsed: LaunchJob.Parsed?
    var parseStarted = false
    /// Stops the download if it is still running when another step fails.
    var cancelOutstanding: (() -> Void)?

    override public var isFinished: Bool { super.isFinished || parsed != nil }
    override public var progress: String {
        localized(
            "orders %@, products %@", localized(fetched == nil ? "not in" : "in"),
            localized(preloaded == nil ? "not loaded" : "loaded"))
    }

    func ordersArrived(_ outcome: RevalidatingFetcher.Outcome) {
        fetched = outcome
        screen.status = localized("orders: %@", localized(outcome.source.rawValue))
    }

    func productsLoaded(_ preloaded: LaunchJob.Preloaded) {
        self.preloaded = preloaded
    }

    func show(_ parsed: LaunchJob.Parsed) {
        self.parsed = parsed
        let orders = parsed.orders
        trace.measure("reload") {
            screen.table.reloadData(count: min(visibleRows, orders.count)) { index in
                let order = orders[index]
                return TableRow(
                    text: localized(
                        "order %@: %@ x %@  ¥%@", "\(order.id)", "\(order.quantity)", order.product.name,
                        "\(order.totalYen)"),
                    detail: order.product.code)
            }
        }
        let total = orders.reduce(0) { $0 + $1.totalYen }
        screen.status = localized(
            "%d orders, ¥%ld in all (orders: %@)", orders.count, total,
            fetched.map { localized($0.source.rawValue) } ?? "?")
    }

    /// A step failed: the launch cannot show its orders, so nothing else is waited for.
    func showFailure(_ error: any Error) {
        fail("\(error)")
        cancelOutstanding?()
    }
}
