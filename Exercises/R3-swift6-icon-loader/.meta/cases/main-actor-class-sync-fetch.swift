import Foundation

/// A @MainActor class that runs the fetch on a queue of its own with `sync`: the fetch runs on
/// that queue, and the main actor waits for it all the while (its main thread makes the `sync`
/// and holds the main queue, as dispatch itself says). By its queue alone the fetch would be
/// off main; the main actor's executor says it is on main, and so does the check.
@MainActor
public final class IconLoader {
    private let fetch: @Sendable (String) -> [UInt8]
    private var icons: [String: [UInt8]] = [:]
    private let queue = DispatchQueue(label: "icon-fetch")
    public static var activeRequests = 0

    public nonisolated init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    public func loadIcon(named name: String, completion: @escaping @MainActor ([UInt8]) -> Void) {
        if let icon = icons[name] {
            completion(icon)
            return
        }
        IconLoader.activeRequests += 1
        let fetch = self.fetch
        let icon = queue.sync { fetch(name) }
        IconLoader.activeRequests -= 1
        icons[name] = icon
        completion(icon)
    }
}
