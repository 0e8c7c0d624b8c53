import Foundation

// The 2010 fix: locks everywhere. Safe now, but the compiler still checks nothing.
// @unchecked: `lock` guards `icons` and `waiting`.
public final class IconLoader: @unchecked Sendable {
    private let fetch: @Sendable (String) -> [UInt8]
    private let lock = NSLock()
    private var icons: [String: [UInt8]] = [:]
    private var waiting: [String: [@Sendable ([UInt8]) -> Void]] = [:]
    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var requests = 0  // guarded by counterLock
    public static var activeRequests: Int { counterLock.withLock { requests } }

    public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    public func loadIcon(named name: String, completion: @escaping @Sendable ([UInt8]) -> Void) {
        enum Next {
            case cached([UInt8])
            case waits, fetches
        }
        let next: Next = lock.withLock {
            if let icon = icons[name] { return .cached(icon) }
            if waiting[name] != nil {
                waiting[name]?.append(completion)
                return .waits
            }
            waiting[name] = [completion]
            return .fetches
        }
        switch next {
        case .cached(let icon): DispatchQueue.main.async { completion(icon) }
        case .waits: return
        case .fetches:
            IconLoader.counterLock.withLock { IconLoader.requests += 1 }
            DispatchQueue.global().async {
                let icon = self.fetch(name)
                IconLoader.counterLock.withLock { IconLoader.requests -= 1 }
                let callers = self.lock.withLock {
                    self.icons[name] = icon
                    return self.waiting.removeValue(forKey: name) ?? []
                }
                DispatchQueue.main.async { for caller in callers { caller(icon) } }
            }
        }
    }
}
