import Foundation
import WorkshopCore

/// One variant run end to end on the main thread, and what it measured.
struct FlowRun {
    struct Settings {
        var width = 2
        var output = ScreenOutput.silent
        var timeoutSeconds = 60.0
    }

    var variant: Variant
    var metrics: [(String, Metric)]
    var rows: [TableRow]
    var completionOrder: [String]
    var cancelled: [String]
    var failure: String?
    var screen: ScreenMetrics
    var maxConcurrent: Int

    /// Runs `variant` of `plan`. Call on the main thread: it runs the main run loop until
    /// every row has settled (or `settings.timeoutSeconds` passed).
    static func perform(_ variant: Variant, plan: AccountPlan, settings: Settings) -> FlowRun {
        requireMainQueue()
        let requestsBefore = plan.endpoint.requestsServed
        let session = HTTPFetcher(timeout: 10).session
        let screen = Screen(title: "account (\(variant.rawValue))", output: settings.output)
        let controller = AccountController(screen: screen, labels: plan.labels)
        let clock = Stopwatch()
        screen.start()
        var flow: OperationFlow?
        switch variant {
        case .threaded:
            flow = OperationFlow(width: settings.width, session: session)
            flow?.start(plan, controller: controller)
        default:
            BlockingFlow.run(plan, controller: controller, session: session)
        }
        // The cancel tap, if any, must have been handled too (no-thread: only now).
        let finished = MainLoop.run(timeout: settings.timeoutSeconds) {
            controller.isFinished && (controller.onCancelTap == nil || controller.cancelTapHandledAt != nil)
        }
        let total = clock.elapsed
        let measured = screen.stop()
        session.finishTasksAndInvalidate()

        let slowLabel = plan.slowItem.map(AccountPlan.itemLabel)
        let slowDelivered = slowLabel.map { label in controller.row(label).map { $0.text != "cancelled" } ?? false } ?? false
        let maxConcurrent = flow?.gauge.most ?? 1  // blocking calls: one request at a time
        var metrics: [(String, Metric)] = [
            ("totalSeconds", .seconds(total)),
            ("firstContentSeconds", .seconds(measured.firstContentSeconds ?? total)),
            ("firstRowsSeconds", .seconds(measured.firstRowsSeconds ?? total)),
            ("mainThreadMaxStallSeconds", .seconds(measured.maxStallSeconds)),
            ("droppedFrames", .count(measured.droppedFrames)),
            ("maxConcurrentOperationsSeen", .count(maxConcurrent)),
            ("cancelTapHandledSeconds", .seconds(controller.cancelTapHandledAt ?? total)),
            ("cancelledItemDelivered", .count(slowDelivered ? 1 : 0)),
        ]
        if let before = requestsBefore, let after = plan.endpoint.requestsServed {
            metrics.append(("requestsServed", .count(after - before)))
        }
        metrics.append(("completionOrder", .text(controller.completionOrder.map(Self.short).joined(separator: " "))))
        var failure = controller.failure
        if !finished && failure == nil {
            failure = "gave up after \(Int(settings.timeoutSeconds)) s with \(controller.rows.count) of \(plan.labels.count) steps in"
        }
        return FlowRun(variant: variant, metrics: metrics, rows: controller.rows, completionOrder: controller.completionOrder,
                       cancelled: controller.cancelled, failure: failure, screen: measured, maxConcurrent: maxConcurrent)
    }

    /// "item 3" -> "i3", for a completion order that fits on one line.
    static func short(_ label: String) -> String {
        label.hasPrefix("item ") ? "i" + label.dropFirst(5) : label
    }
}
