// Exercise 01a: fetch the user and the items side by side, so that a cancel stops them and shows nothing.
// Check it: swift run workshop check 01a
import ExerciseChecks

/// Logs in, then fetches the user and their items, and shows them. The caller runs this in a
/// task on the main actor and may cancel that task at any moment (the user left the screen).
/// As shipped it shows the right account when nothing goes wrong, but it is slow, a cancel
/// does not reach the requests, and a failure or a cancel is shown as an empty account.
public enum AccountLoader {
    @MainActor
    public static func showAccount(from service: AccountService, on screen: AccountScreen) async throws {
        let token = try await service.login()

        // TODO(1): one after the other, each in a `Task` of its own: a cancel of this task never reaches them.
        let user = await Task { try? await service.user(token: token) }.value
        let items = await Task { try? await service.items(token: token) }.value

        // TODO(2): `try?` turned a failure, and a cancel, into "no value": they are shown instead of thrown.
        screen.show(user: user ?? "(unknown)", items: items ?? [])
    }
}
