import Foundation
import WorkshopCore

/// Why FetchOperation announces its state changes: the same asynchronous operation without
/// `willChangeValue` / `didChangeValue`. Its state is right when read, but nobody is told
/// it changed, and the queue only looks when told. Run `lesson01 --show-hang` to see it.
// @unchecked: restated, as for every `Operation` subclass (see FetchOperation); `state` is a Locked
final class SilentOperation: Operation, @unchecked Sendable {
    private let state = Locked((started: false, finished: false))  // set on two threads
    /// Signalled once the operation has (silently) finished, so the demo knows when to look.
    let finishedSignal = DispatchSemaphore(value: 0)
    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.withLock { $0.started && !$0.finished } }
    override var isFinished: Bool { state.current.finished }

    override func start() {
        state.withLock { $0.started = true }  // silently: no willChangeValue/didChangeValue
        // Finish 50 ms later, on another thread, like a network callback would, and as silently.
        // (Finishing at once, while the queue is still busy starting it, can hide the bug:
        // here the completion block then sometimes ran anyway.)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            self.state.withLock { $0.finished = true }
            self.finishedSignal.signal()
        }
    }
}

public enum WhyNotify {
    public struct Outcome: Sendable {
        public var finishedFlag: Bool
        public var completionBlockRan: Bool
        public var dependantRan: Bool
        public var operationsStillInQueue: Int
    }

    /// What `lesson01 --show-hang` prints: the demonstration, in words.
    public static func report(seconds: Double = 1) -> String {
        let outcome = demonstrate(seconds: seconds)
        return [
            localized(
                "An asynchronous operation that sets its state but never calls willChangeValue/didChangeValue(forKey: \"isFinished\"):"
            ),
            localized(
                "  %1$@ s after it finished: isFinished = %2$@, completionBlock ran = %3$@, dependant ran = %4$@, operations still in the queue = %5$d",
                seconds.formattedSeconds, "\(outcome.finishedFlag)", "\(outcome.completionBlockRan)",
                "\(outcome.dependantRan)", outcome.operationsStillInQueue),
            localized(
                "  The operation is done, but the queue was never told: its slot stays taken and its dependant never runs."
            ),
            localized("  FetchOperation.move(to:) announces every change; that is the whole difference."),
        ].joined(separator: "\n")
    }

    /// Queues a SilentOperation and a dependant, waits until it has finished and then
    /// `seconds` more, and reports what the queue did. The silent operation stays in its
    /// queue for good (the queue is leaked on purpose).
    public static func demonstrate(seconds: Double = 1) -> Outcome {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let silent = SilentOperation()
        let signals = Locked((completion: false, dependant: false))  // set on queue threads
        let done = DispatchSemaphore(value: 0)
        silent.completionBlock = {
            signals.withLock { $0.completion = true }
            done.signal()
        }
        let dependant = BlockOperation { signals.withLock { $0.dependant = true } }
        dependant.addDependency(silent)
        queue.addOperations([silent, dependant], waitUntilFinished: false)
        _ = silent.finishedSignal.wait(timeout: .now() + 10)  // the operation's own work is done...
        _ = done.wait(timeout: .now() + seconds)  // ...and the queue gets `seconds` more to notice: it will not
        let seen = signals.current
        return Outcome(
            finishedFlag: silent.isFinished, completionBlockRan: seen.completion,
            dependantRan: seen.dependant, operationsStillInQueue: queue.operationCount)
    }
}
