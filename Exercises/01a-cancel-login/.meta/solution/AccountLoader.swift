// Exercise 01a: fetch the user and the items side by side, so that a cancel stops them and shows nothing.
// Check it: swift run workshop check 01a
import ExerciseChecks

/// Logs in, then fetches the user and their items, and shows them. The caller runs this in a
/// task on the main actor and may cancel that task at any moment (the user left the screen).
public enum AccountLoader {
    @MainActor
    public static func showAccount(from service: AccountService, on screen: AccountScreen) async throws {
        // The dependency is the order of the awaits: no token, no user and no items.
        let token = try await service.login()

        // Two child tasks, started at once. Being children of this task, they are cancelled
        // with it, and their errors (CancellationError too) come out of the `try await` below.
        async let user = service.user(token: token)
        async let items = service.items(token: token)
        let account = try await (user: user, items: items)

        // A cancel that came just as the answers did: still show nothing.
        try Task.checkCancellation()
        screen.show(user: account.user, items: account.items)
    }
}
