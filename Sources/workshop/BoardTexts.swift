import Foundation

/// What `join`, `leave` and `check` say about the room's board (its Japanese in the table).
extension Text {
    static func boardJoined(_ url: String, _ name: String) -> String {
        localized(
            format:
                "Joined the board at %@ as %@. From now on every check sends the exercise, pass or fail, the failing check's name, the time spent and the worst freeze (never your code). `swift run workshop leave` stops it.",
            url, name)
    }

    static func boardJoinRefused(_ reason: String) -> String {
        localized(format: "the board did not let you join: %@", reason)
    }

    static func boardJoinUnreachable(_ url: String, _ reason: String) -> String {
        localized(
            format:
                "could not reach the board at %@ (%@). Is `fixture-server --board` running there, with --host for the room, and is the address right?",
            url, reason)
    }

    static var boardNotJoined: String { localized("You have not joined a board; nothing to leave.") }

    static func boardLeft(_ url: String, unsent: Int) -> String {
        let dropped =
            unsent == 0
            ? ""
            : unsent == 1
                ? localized(" (1 unsent report dropped)") : localized(format: " (%d unsent reports dropped)", unsent)
        return localized(format: "Left the board at %@%@. Checks no longer report anything.", url, dropped)
    }

    /// The line `list` ends with while the learner is on a board.
    static func boardMember(_ url: String, _ name: String, waiting: Int) -> String {
        let late = waiting == 0 ? "" : localized(format: ", %d waiting to be sent", waiting)
        return localized(
            format: "Reporting your checks to the board at %@ as %@%@ (`swift run workshop leave` stops it).", url,
            name, late)
    }

    static var boardNothingWaits: String { localized("Nothing waits for the board: every check has been sent.") }

    static var boardSent: String { localized("(sent to the room's board)") }

    static func boardUnreachable(_ reason: String) -> String {
        localized(
            format:
                "(the room's board did not take it: %@; it goes with your next check, or now with `swift run workshop send`)",
            reason)
    }

    static func boardRefused(_ reason: String) -> String {
        localized(
            format: "workshop: the room's board refused the report: %@ (`swift run workshop join` again to fix it)",
            reason)
    }

    static func boardNoAnswer(_ seconds: Double) -> String {
        localized(format: "no answer within %@ s", "\(seconds)")
    }
}
