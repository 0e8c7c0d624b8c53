import Foundation

/// Another fix: the state lives on the main actor (where the cells are), the fetch runs on a
/// global queue and hops back with a main-actor task. The driver creates the loader outside
/// the main actor, so the init is `nonisolated`: it only stores `fetch`, which is `Sendable`.
@MainActor
public final class IconLoader {
    private let fetch: @Sendable (String) -> [UInt8]
    private var icons: [String: [UInt8]] = [:]
    private var waiting: [String: [@MainActor ([UInt8]) -> Void]] = [:]
    public static var activeRequests = 0

    public nonisolated init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    public func loadIcon(named name: String, completion: @escaping @MainActor ([UInt8]) -> Void) {
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
        let fetch = self.fetch
        DispatchQueue.global().async {
            let icon = fetch(name)
            Task { @MainActor in self.finish(name, icon) }
        }
    }

    private func finish(_ name: String, _ icon: [UInt8]) {
        IconLoader.activeRequests -= 1
        icons[name] = icon
        for caller in waiting.removeValue(forKey: name) ?? [] { caller(icon) }
    }
}
