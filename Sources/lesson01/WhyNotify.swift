import Foundation
import WorkshopCore

/// Why FetchOperation announces its state changes: the same asynchronous operation without
/// `willChangeValue` / `didChangeValue`. Its state is right when read, but nobody is told
/// it changed, and the queue only looks when told. Run `lesson01 --show-hang` to see it.
final class SilentOperation: Operation, @unchecked Sendable {  // @unchecked: `finished` is a Locked
    private let finished = Locked(false)
    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { !finished.current }
    override var isFinished: Bool { finished.current }

    override func start() {
        // Finish "later", on another thread, like a network callback would, but silently.
        DispatchQueue.global().async { self.finished.withLock { $0 = true } }
    }
}

enum WhyNotify {
    struct Outcome {
        var finishedFlag: Bool
        var completionBlockRan: Bool
        var dependantRan: Bool
        var operationsStillInQueue: Int
    }

    /// Queues a SilentOperation and a dependant, waits `seconds`, and reports what the queue
    /// did. The silent operation stays in its queue for good (the queue is leaked on purpose).
    static func demonstrate(seconds: Double = 1) -> Outcome {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let silent = SilentOperation()
        let signals = Locked((completion: false, dependant: false))  // set on queue threads
        let done = DispatchSemaphore(value: 0)
        silent.completionBlock = { signals.withLock { $0.completion = true }; done.signal() }
        let dependant = BlockOperation { signals.withLock { $0.dependant = true } }
        dependant.addDependency(silent)
        queue.addOperations([silent, dependant], waitUntilFinished: false)
        _ = done.wait(timeout: .now() + seconds)  // a bounded wait: it will time out
        let seen = signals.current
        return Outcome(finishedFlag: silent.isFinished, completionBlockRan: seen.completion,
                       dependantRan: seen.dependant, operationsStillInQueue: queue.operationCount)
    }
}
