import ArgumentParser
import Foundation
import WorkshopCore
import WorkshopServer

/// `workshop join URL --name NAME --code CODE`: from now on every `check` tells the room's
/// board (the instructor's `fixture-server --board`) how it went. Never the learner's code.
struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Join the room's board: every check then reports its outcome (never your code) to the instructor."),
        discussion: localized(
            """
            Each check sends the exercise, pass or fail, the failing check's name, the time spent on the \
            exercise and the run's worst freeze. A check never waits for the board more than a moment; \
            what could not be sent goes with the next check. `workshop leave` stops it.
            """)
    )

    @Argument(
        help: ArgumentHelp(localized("The instructor's server, e.g. http://192.168.1.23:8080."), valueName: "url"),
        transform: Join.serverURL)
    var server: URL

    @Option(help: ArgumentHelp(localized("Your name on the board (up to 24 characters)."), valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp(localized("The room code the instructor's server printed."), valueName: "code"))
    var code: String

    @OptionGroup var language: LanguageOption

    /// How long `join` waits for the board: it is a command of its own, so longer than a check;
    /// with the program's start and its one line, it ends within 3.5 s whatever the board does.
    static let timeout = 2.5

    /// "http://HOST:PORT" (a path is dropped); "HOST:PORT" is taken as http.
    static func serverURL(_ text: String) throws -> URL {
        let full = text.contains("://") ? text : "http://" + text
        guard var parts = URLComponents(string: full), parts.scheme?.lowercased() == "http",
            let host = parts.host, !host.isEmpty
        else {
            throw ValidationError(
                localized(
                    format: "the board's address is http://HOST:PORT, e.g. http://192.168.1.23:8080 (got \"%@\")", text)
            )
        }
        parts.path = ""
        parts.query = nil
        parts.fragment = nil
        guard let url = parts.url else { throw ValidationError(localized(format: "\"%@\" is not an address", text)) }
        return url
    }

    func validate() throws {
        do { _ = try BoardRules.name(name) } catch {
            throw ValidationError("--name: " + Self.said(error))
        }
        guard RoomCode.normalized(code) != nil else {
            throw ValidationError(
                localized(
                    format:
                        "--code: a room code is the 6 letters and digits the instructor's server printed (got \"%@\")",
                    code))
        }
    }

    /// Why `BoardRules` refused the name, in the learner's language (its English is WorkshopCore's,
    /// shared with the board, which answers in English; the one changing part, the character, is kept).
    static func said(_ refusal: BoardRefusal) -> String {
        let notAllowed = "the name may hold letters, digits, punctuation and single spaces, not "
        if refusal.description.hasPrefix(notAllowed) {
            return localized(format: notAllowed + "%@", String(refusal.description.dropFirst(notAllowed.count)))
        }
        return localized(refusal.description)
    }

    func run() throws {
        let workspace = Workspace.locate()
        // Both were checked by `validate`.
        let name = (try? BoardRules.name(self.name)) ?? self.name
        let code = RoomCode.normalized(self.code) ?? self.code
        let answer = BoardSync.post(
            BoardBatch(code: code, name: name, reports: []), to: server.appendingPathComponent("board/join"),
            timeout: Self.timeout)
        switch answer {
        case .accepted:
            break
        case .refused(let status, let reason) where status != 404:
            throw WorkshopFailure(Text.boardJoinRefused(reason))
        case .refused:
            throw WorkshopFailure(Text.boardJoinUnreachable(server.absoluteString, localized("no board there (404)")))
        case .unreachable(let reason):
            throw WorkshopFailure(Text.boardJoinUnreachable(server.absoluteString, reason))
        }
        workspace.updateProgress { progress in
            progress.board = BoardMembership(url: server.absoluteString, name: name, code: code)
        }
        Style.line(Text.boardJoined(server.absoluteString, name))
    }
}

/// `workshop leave`: checks stop reporting to the room's board.
struct Leave: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("Leave the room's board: checks no longer report anything."))

    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        guard let board = workspace.progress().board else {
            Style.line(Text.boardNotJoined)
            return
        }
        workspace.updateProgress { $0.board = nil }
        Style.line(Text.boardLeft(board.url, unsent: board.pending.count))
    }
}

/// `workshop send`: sends the reports a check could not deliver (the board was away or slow), now,
/// waiting for the board longer than a check does. A check sends them too.
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("Send the reports waiting for the room's board now (the next check sends them too)."))

    @OptionGroup var language: LanguageOption

    /// A command of its own: it may wait as long as `join`.
    static let timeout = Join.timeout

    func run() throws {
        let workspace = Workspace.locate()
        guard let board = workspace.progress().board else {
            Style.line(Text.boardNotJoined)
            return
        }
        guard !board.pending.isEmpty else {
            Style.line(Text.boardNothingWaits)
            return
        }
        if !BoardSync.flush(workspace, timeout: Self.timeout) { throw ExitCode(1) }
    }
}
