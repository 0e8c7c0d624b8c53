import Dispatch
import WorkshopCore

/// The "view controller" both variants share: one row per step (login, user, welcome note,
/// each item), filled in as results arrive. It never fetches. Like a UIViewController it
/// lives on the main queue (every method checks).
final class AccountController: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    let labels: [String]
    private var settled: [String: TableRow] = [:]
    /// Labels in the order their results reached the main thread.
    private(set) var completionOrder: [String] = []
    private(set) var failure: String?
    private(set) var cancelled: [String] = []
    /// Set by a variant: what happens when the user taps "cancel" on the slow item.
    var onCancelTap: (() -> Void)?
    private(set) var cancelTapHandledAt: Double?
    private var tapQueued = false

    init(screen: Screen, labels: [String]) {
        self.screen = screen
        self.labels = labels
    }

    var isFinished: Bool { settled.count == labels.count }
    var rows: [TableRow] { labels.compactMap { settled[$0] } }
    func row(_ label: String) -> TableRow? { settled[label] }

    func showLoggingIn() {
        requireMainQueue()
        screen.table.placeholder = "logging in..."
    }

    /// Shows a step's outcome. The first item on screen makes the user tap "cancel" on the
    /// slow one: a tap is an event, so it is queued on the main queue like any touch, and
    /// handled only when the main thread gets back to its run loop.
    func show<Value>(_ label: String, _ result: Result<Value, FetchFailure>, describe: (Value) -> TableRow) {
        requireMainQueue()
        guard settled[label] == nil else { preconditionFailure("\(label) delivered twice") }
        switch result {
        case .success(let value):
            settled[label] = describe(value)
        case .failure(.cancelled):
            settled[label] = TableRow(text: "cancelled", detail: label)
            cancelled.append(label)
        case .failure(let failure):
            settled[label] = TableRow(text: "failed: \(failure)", detail: label)
            if self.failure == nil { self.failure = "\(label): \(failure)" }
        }
        completionOrder.append(label)
        screen.table.reloadData(count: rows.count) { rows[$0] }
        screen.status = "\(label): " + (cancelled.last == label ? "cancelled" : settled[label]!.text.hasPrefix("failed") ? "failed" : "in")
        if label.hasPrefix("item"), !tapQueued, let tap = onCancelTap {
            tapQueued = true
            DispatchQueue.main.async { [self] in
                cancelTapHandledAt = screen.elapsed
                tap()
            }
        }
    }
}
