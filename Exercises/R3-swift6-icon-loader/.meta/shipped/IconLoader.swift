// Exercise R3: make a 2010-style icon loader Swift 6 clean, without @unchecked Sendable or nonisolated(unsafe).
// Check it: swift run workshop check R3
import Foundation

/// Lesson 03's icon cache as a 2010 app wrote it: icons and waiting callers in dictionaries (5
/// cells asking for one icon cost one request), fetches on a queue, completion handlers. Cells
/// call `loadIcon` on main while `queue` writes both dictionaries: a data race, which Swift 6
/// accepts only because of two promises below that nothing keeps. Keep the names the check calls.
// TODO(1): `@unchecked Sendable` tells the compiler "this class guards its own state" and
// switches its checking off. Nothing guards `icons` or `waiting`. Remove it, and make the
// compiler happy another way (an actor, or a class that lives on the main actor).
public final class IconLoader: @unchecked Sendable {
    /// The network: blocks the calling thread until the icon's bytes are in.
    private let fetch: @Sendable (String) -> [UInt8]
    private var icons: [String: [UInt8]] = [:]
    private var waiting: [String: [([UInt8]) -> Void]] = [:]
    private let queue = DispatchQueue(label: "icon-loader", attributes: .concurrent)

    /// The requests on the wire, for the network activity indicator in the status bar.
    // TODO(2): `nonisolated(unsafe)` switches the checking off: main adds, `queue` subtracts. Remove it.
    nonisolated(unsafe) public static var activeRequests = 0

    public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    /// Gives `name`'s icon to `completion`, fetching it once however many cells ask.
    public func loadIcon(named name: String, completion: @escaping ([UInt8]) -> Void) {
        if let icon = icons[name] {
            completion(icon)
            return
        }
        if waiting[name] != nil {
            waiting[name]?.append(completion)
            return
        }
        waiting[name] = [completion]
        IconLoader.activeRequests += 1
        queue.async {
            let icon = self.fetch(name)
            IconLoader.activeRequests -= 1
            self.icons[name] = icon
            let callers = self.waiting.removeValue(forKey: name) ?? []
            // TODO(3): this runs on `queue`, and a cell must be touched on the main thread only.
            // Call the callers back on the main actor.
            for caller in callers { caller(icon) }
        }
    }
}
