import Foundation

/// A main-actor class whose init belongs to the main actor too (the default): the driver
/// creates the loader outside the main actor, without `await`, so it does not compile with it.
@MainActor
public final class IconLoader {
    private let fetch: @Sendable (String) -> [UInt8]
    public static var activeRequests = 0

    public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
        self.fetch = fetch
    }

    public func loadIcon(named name: String, completion: @escaping @MainActor ([UInt8]) -> Void) {
        completion(fetch(name))
    }
}
