import Dispatch
import WorkshopCore

/// The "view controller" both variants share: one row per step (login, user, welcome note,
/// each item), filled in as results arrive. It never fetches.
@MainActor
public final class AccountController: LessonController {
    public let labels: [String]
    private var settled: [String: TableRow] = [:]
    /// Labels in the order their results reached the main thread.
    public private(set) var completionOrder: [String] = []
    /// Steps that ended cancelled: by the user's tap, or because the run had failed.
    public private(set) var cancelled: [String] = []
    /// Set by a variant: what happens when the user taps "cancel" on the slow item.
    public var onCancelTap: (() -> Void)?
    /// Set by a variant: what to stop once a step has failed (the run's result is decided).
    public var onFailure: (() -> Void)?
    public private(set) var cancelTapHandledAt: Double?
    private var tapQueued = false
    private var delivered: Set<String> = []

    public init(title: String, output: ScreenOutput, labels: [String]) {
        self.labels = labels
        super.init(title: title, output: output)
    }

    /// Every step has settled (even after a failure: the rest then settle at once, failed or
    /// cancelled without a request), and the user's tap, if any, has been handled.
    override public var isFinished: Bool {
        wasCancelledByUser || settled.count == labels.count && (onCancelTap == nil || cancelTapHandledAt != nil)
    }
    override public var progress: String {
        localized(labels.count == 1 ? "%d of %d step in" : "%d of %d steps in", settled.count, labels.count)
    }
    /// A run that never logged in has no figures worth a table.
    override public var gotStarted: Bool { delivered.contains("login") }

    public var rows: [TableRow] { labels.compactMap { settled[$0] } }
    /// Whether the step's result arrived (not failed, not cancelled).
    public func wasDelivered(_ label: String) -> Bool { delivered.contains(label) }

    /// Shows a step's outcome. The first item on screen makes the user tap "cancel" on the
    /// slow one: a tap is an event, so it is queued on the main queue like any touch, and
    /// handled only when the main thread gets back to its run loop.
    func show<Value>(_ label: String, _ result: Result<Value, FetchError>, describe: (Value) -> TableRow) {
        guard settled[label] == nil else { preconditionFailure("\(label) delivered twice") }
        var failed: FetchError?
        switch result {
        case .success(let value):
            settled[label] = describe(value)
            delivered.insert(label)
        case .failure(.cancelled):
            settled[label] = TableRow(text: localized("cancelled"), detail: label)
            cancelled.append(label)
        case .failure(let error):
            settled[label] = TableRow(text: localized("failed: %@", "\(error)"), detail: label)
            failed = error
        }
        completionOrder.append(label)
        screen.table.reloadData(count: rows.count) { rows[$0] }
        if let failed {
            let first = failure == nil
            fail("\(failed)")  // the URL in it says which step; the Screen's status says "failed"
            if first { onFailure?() }
        } else if failure == nil {  // after a failure, the status keeps saying "failed"
            screen.status = "\(label): " + (cancelled.last == label ? localized("cancelled") : localized("in"))
        }
        if label.hasPrefix("item"), !tapQueued, let tap = onCancelTap {
            tapQueued = true
            DispatchQueue.main.async { [self] in
                cancelTapHandledAt = screen.elapsed
                tap()
            }
        }
    }
}
