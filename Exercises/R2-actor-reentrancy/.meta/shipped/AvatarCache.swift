// Exercise R2: a cache actor that fetches each avatar once, however many callers ask at the same time.
// Check it: swift run workshop check R2
import ExerciseChecks

/// Remembers each avatar once fetched. It is an actor, so no two calls touch `avatars` at the
/// same time: there is no data race here. And yet, as shipped, four callers asking for one
/// name at once cause four fetches and get four different avatars.
public actor AvatarCache {
    private let loader: AvatarLoader
    private var avatars: [String: String] = [:]

    public init(loader: AvatarLoader) {
        self.loader = loader
    }

    public func avatar(for name: String) async throws -> String {
        if let avatar = avatars[name] { return avatar }
        // TODO(1): while this waits, the actor runs other calls: each one still finds no avatar and fetches too.
        let avatar = try await loader.fetch(name)
        // TODO(2): by now another call may have stored its own fetch's avatar for `name`: this overwrites it.
        avatars[name] = avatar
        return avatar
    }
}
