import Foundation
import Synchronization

/// Another fix, at the edge of the pool check: an actor whose executor is a serial dispatch
/// queue of its own (as lesson 06's writer actor), fetching on that queue. The blocking fetch
/// holds the actor's own thread, not one of the cooperative pool's, so the pool check passes;
/// every other caller of the actor waits meanwhile (hint 3 says why the fetch is better on a
/// queue of its own).
public actor IconLoader {
    final class QueueExecutor: SerialExecutor {
        let queue = DispatchQueue(label: "icon-loader")
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    private let executor = QueueExecutor()
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let fetch: @Sendable (String) -> [UInt8]
    private var icons: [String: [UInt8]] = [:]
    private static let requestsOnTheWire = Atomic(0)
    public static var activeRequests: Int { requestsOnTheWire.load(ordering: .relaxed) }

    public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    /// No await between the look and the fetch: one call at a time fetches, on the actor's queue.
    public func icon(named name: String) -> [UInt8] {
        if let icon = icons[name] { return icon }
        IconLoader.requestsOnTheWire.add(1, ordering: .relaxed)
        let icon = fetch(name)
        IconLoader.requestsOnTheWire.subtract(1, ordering: .relaxed)
        icons[name] = icon
        return icon
    }

    public nonisolated func loadIcon(
        named name: String, completion: @escaping @MainActor @Sendable ([UInt8]) -> Void
    ) {
        Task { @MainActor in completion(await self.icon(named: name)) }
    }
}
