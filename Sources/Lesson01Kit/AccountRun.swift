import Foundation
import WorkshopCore

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }

/// What a lesson 01 run leaves behind besides its metrics.
public struct AccountDetails: Sendable {
    /// The rows as they stood at the end, in screen order.
    public var rows: [TableRow]
    /// Labels in the order their results reached the main thread.
    public var completionOrder: [String]
    public var cancelled: [String]
    /// The most fetches seen executing (or awaited) at once (blocking calls: one).
    public var maxConcurrent: Int
}

/// Runs one variant of lesson 01 and adds the lesson's own metrics.
public enum AccountRun {
    public struct Settings: Sendable {
        /// `maxConcurrentOperationCount` of the threaded variant's queue; the async variant's task group width.
        public var width: Int
        public var output: ScreenOutput
        /// Upper bound for the whole run (default: the plan's worst case); a run that has not
        /// finished by then has failed.
        public var timeoutSeconds: Double?
        /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
        public var cancelAfter: Double?
        public init(width: Int = 2, output: ScreenOutput = .silent, timeoutSeconds: Double? = nil) {
            self.width = width
            self.output = output
            self.timeoutSeconds = timeoutSeconds
        }
    }

    /// Call on the main thread: it serves the main run loop until every row has settled.
    @MainActor
    public static func perform(_ variant: Variant, plan: AccountPlan, settings: Settings) -> VariantRun<AccountDetails>
    {
        let requestsBefore = plan.endpoint.requestsServed
        let session = HTTPFetcher(timeout: plan.endpoint.timeoutSeconds).session
        let controller = AccountController(
            title: "account (\(variant.rawValue))", output: settings.output, labels: plan.labels)
        let flow = variant == .threaded ? ThreadedAccount(width: settings.width, session: session) : nil
        let tasks = variant == .async ? AsyncAccount(width: settings.width, session: session) : nil
        var run = VariantRun.perform(
            variant.rawValue, controller: controller, timeout: settings.timeoutSeconds ?? plan.worstCaseSeconds,
            // The items go `width` at a time: that many requests may be on their way at a cancel.
            cancelAfter: settings.cancelAfter, endpoint: plan.endpoint, requestsAtOnce: settings.width,
            details: AccountDetails(
                rows: controller.rows, completionOrder: controller.completionOrder, cancelled: controller.cancelled,
                maxConcurrent: flow?.gauge.most ?? tasks?.mostInFlight ?? 1)
        ) {
            if let flow {
                flow.start(plan, controller: controller)
            } else if let tasks {
                // Returns at once, like flow.start: the task runs whenever the main loop turns.
                controller.startTask { await tasks.run(plan, controller: controller) }
            } else {
                NoThreadAccount.run(plan, controller: controller, session: session)
            }
        }
        // `VariantRun.perform` has cancelled whatever was left (the controller's `onCancel`) and
        // waited until it ended: only now is the session torn down. Invalidating it while a
        // cancelled child task had still to build its request made that task call `dataTask` on
        // a dead session, which traps ("Session invalidated").
        session.invalidateAndCancel()

        let total = run.seconds(.totalSeconds) ?? 0
        let slowDelivered = plan.slowItem.map { controller.wasDelivered(AccountPlan.itemLabel($0)) } ?? false
        run.metrics.insert((.firstRowsSeconds, .seconds(run.screen.firstRowsSeconds ?? total)), at: 2)
        run.metrics += [
            (.maxConcurrentOperationsSeen, .count(run.details.maxConcurrent)),
            (.cancelTapHandledSeconds, .seconds(controller.cancelTapHandledAt ?? total)),
            (.cancelledItemDelivered, .count(slowDelivered ? 1 : 0)),
        ]
        if let before = requestsBefore, let after = plan.endpoint.requestsServed {
            run.metrics.append((.requestsServed, .count(after - before)))
        }
        run.metrics.append((.completionOrder, .text(controller.completionOrder.map(short).joined(separator: " "))))
        return run
    }

    /// What the numbers say: how many requests overlapped, and what the main thread gained,
    /// for whichever of the three variants ran.
    public static func takeaway(_ runs: [VariantRun<AccountDetails>]) -> String {
        func run(_ variant: Variant) -> VariantRun<AccountDetails>? { runs.run(variant) }
        let (total, tap): (MetricName, MetricName) = (.totalSeconds, .cancelTapHandledSeconds)
        var lines: [String] = []
        if let plain = run(.noThread), let queued = run(.threaded) {
            lines.append(
                localized(
                    "The queue ran up to %d requests at once and finished in %.2f s instead of %.2f s; the main thread's worst freeze went from %.2f s to %.3f s, and the cancel tap was handled after %.2f s instead of %.2f s.",
                    queued.details.maxConcurrent, queued.seconds(total) ?? 0, plain.seconds(total) ?? 0,
                    plain.screen.maxStallSeconds, queued.screen.maxStallSeconds, queued.seconds(tap) ?? 0,
                    plain.seconds(tap) ?? 0))
        }
        if let tasks = run(.async) {
            let (width, freeze, taken, handled) = (
                tasks.details.maxConcurrent, tasks.screen.maxStallSeconds, tasks.seconds(total) ?? 0,
                tasks.seconds(tap) ?? 0
            )
            if let queued = run(.threaded) {
                lines.append(
                    localized(
                        "async: up to %1$d requests at once, worst freeze %2$.3f s, total %3$.2f s, cancel tap handled after %4$.2f s - %5$@, without an Operation or a thread of our own.",
                        width, freeze, taken, handled,
                        VariantComparison.verdict(tasks, against: queued, otherName: localized("the queue"))))
            } else if let plain = run(.noThread) {
                lines.append(
                    localized(
                        "async: up to %d requests at once, worst freeze %.3f s, total %.2f s, cancel tap handled after %.2f s - the blocking calls froze the main thread for %.2f s and took %.2f s.",
                        width, freeze, taken, handled, plain.screen.maxStallSeconds, plain.seconds(total) ?? 0))
            } else {
                lines.append(
                    localized(
                        "async: up to %d requests at once, worst freeze %.3f s, total %.2f s, cancel tap handled after %.2f s.",
                        width, freeze, taken, handled))
            }
        }
        return lines.isEmpty
            ? localized("Run all three variants (the default) to compare them.") : sentences(lines)
    }

    /// "item 3" -> "i3", for a completion order that fits on one line.
    static func short(_ label: String) -> String {
        label.hasPrefix("item ") ? "i" + label.dropFirst(5) : label
    }
}
