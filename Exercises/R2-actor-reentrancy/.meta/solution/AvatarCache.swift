// Exercise R2: a cache actor that fetches each avatar once, however many callers ask at the same time.
// Check it: swift run workshop check R2
import ExerciseChecks

/// Remembers each avatar once fetched. It is an actor, so no two calls touch `avatars` at the
/// same time. A fetch in flight is remembered too, so callers who ask meanwhile wait for it
/// instead of starting their own.
public actor AvatarCache {
    private let loader: AvatarLoader
    /// Each name's fetch, running or done. Stored before the first `await`, so a call that runs
    /// while it waits finds it.
    private var avatars: [String: Task<String, any Error>] = [:]

    public init(loader: AvatarLoader) {
        self.loader = loader
    }

    public func avatar(for name: String) async throws -> String {
        if let fetch = avatars[name] { return try await fetch.value }
        let loader = self.loader
        let fetch = Task { try await loader.fetch(name) }
        avatars[name] = fetch
        do {
            return try await fetch.value
        } catch {
            // A failure is not an avatar: forget it, so the next caller fetches again.
            avatars[name] = nil
            throw error
        }
    }
}
