// Exercise R3: make a 2010-style icon loader Swift 6 clean, without @unchecked Sendable or nonisolated(unsafe).
// Check it: swift run workshop check R3
import Foundation
import Synchronization

/// Lesson 03's icon cache, made Swift 6 clean. The two dictionaries are an actor's state, so
/// the compiler itself proves that one call at a time touches them; the callers' completion
/// runs on the main actor, where a cell may be touched.
public actor IconLoader {
    /// The network: blocks the calling thread until the icon's bytes are in.
    private let fetch: @Sendable (String) -> [UInt8]
    private var icons: [String: [UInt8]] = [:]
    /// The fetch of each icon on its way. A second caller awaits it instead of fetching again:
    /// the actor runs other calls while one awaits, so "waiting" must be known before the await.
    private var fetching: [String: Task<[UInt8], Never>] = [:]

    /// The requests on the wire. Touched from the actor and from the fetch queue, and read from
    /// anywhere (the status bar): one number alone, so an atomic is enough, and no actor needed.
    private static let requestsOnTheWire = Atomic(0)
    public static var activeRequests: Int { requestsOnTheWire.load(ordering: .relaxed) }

    public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    /// `name`'s icon, fetched once however many callers ask, at the same time or later.
    public func icon(named name: String) async -> [UInt8] {
        if let icon = icons[name] { return icon }
        if let request = fetching[name] { return await request.value }
        IconLoader.requestsOnTheWire.add(1, ordering: .relaxed)
        let request = Task { [fetch] in await Self.fetchOffTheActor(name, fetch) }
        fetching[name] = request
        let icon = await request.value
        icons[name] = icon
        fetching[name] = nil
        return icon
    }

    /// The old API for the old callers (cells): `completion` runs on the main actor.
    public nonisolated func loadIcon(
        named name: String, completion: @escaping @MainActor @Sendable ([UInt8]) -> Void
    ) {
        Task { @MainActor in completion(await self.icon(named: name)) }
    }

    /// The blocking fetch runs on a dispatch queue: blocking a thread of Swift's small
    /// cooperative pool, or the actor, would stall every other caller meanwhile.
    private static func fetchOffTheActor(_ name: String, _ fetch: @escaping @Sendable (String) -> [UInt8]) async
        -> [UInt8]
    {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let icon = fetch(name)
                requestsOnTheWire.subtract(1, ordering: .relaxed)
                continuation.resume(returning: icon)
            }
        }
    }
}
