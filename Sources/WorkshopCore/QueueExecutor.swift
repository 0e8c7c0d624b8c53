import Dispatch

/// A serial executor on a dispatch queue of its own, for an actor whose work blocks its
/// thread: synchronous SQLite, a commit that waits for the disk, a `Thread.sleep`.
///
/// Why: an actor runs on Swift's shared pool of threads by default, and that pool has about
/// one thread per core (2 here). An actor that spends a second inside SQLite holds one of them
/// the whole time, and every other task in the process (the network, the parsing, on a
/// 2-core laptop half of all of it) waits for the other. Behind this executor the actor keeps
/// its rules (one job at a time, the compiler's isolation checks) but blocks a thread of its
/// own, as the 2010 writer queue did. (Apple's Dispatch has `DispatchSerialQueue` as an
/// executor; Linux's does not, so this is the few lines it takes.)
///
///     actor Writer {
///         private let executor = QueueExecutor(label: "writer")
///         nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
///     }
public final class QueueExecutor: SerialExecutor {
    /// The queue the actor's jobs run on (tests check `dispatchPrecondition(.onQueue(queue))`).
    public let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
