import ExerciseChecks

/// Another fix: each name's entry is either its fetch in flight or its avatar, stored before
/// the first `await`; a failed fetch removes the entry.
public actor AvatarCache {
    private enum Entry {
        case inFlight(Task<String, any Error>)
        case ready(String)
    }

    private let loader: AvatarLoader
    private var entries: [String: Entry] = [:]

    public init(loader: AvatarLoader) {
        self.loader = loader
    }

    public func avatar(for name: String) async throws -> String {
        switch entries[name] {
        case .ready(let avatar):
            return avatar
        case .inFlight(let fetch):
            return try await fetch.value
        case nil:
            let loader = self.loader
            let fetch = Task { try await loader.fetch(name) }
            entries[name] = .inFlight(fetch)
            do {
                let avatar = try await fetch.value
                entries[name] = .ready(avatar)
                return avatar
            } catch {
                entries[name] = nil
                throw error
            }
        }
    }
}
