import Foundation
import WorkshopCore

/// The room's board: who is stuck, on which exercise, for the instructor's projector.
///
/// Learners' `workshop check` runs post reports (`POST /board/report`, with the room code);
/// the board keeps each one in SQLite before it answers, and `/board` draws the room. Served by
/// the fixture server as its own pages (`FixtureServer(ownRoutes: board.routes)`), so nothing a
/// learner sends reaches the lesson API, and the lesson API's knobs never touch the board.
///
/// Sendable, checked: its constants are Sendable, and everything that changes is one `Room`
/// behind a `Watched` (an NSCondition), which also wakes the pages waiting for a change.
public final class RoomBoard: Sendable {
    public struct Settings: Sendable {
        /// Reports (and joins) one address may send at once, then `reportsPerSecond`.
        public var burst = 30
        public var reportsPerSecond = 5.0
        /// Reads (the page, its files, the board's JSON) one address may make at once, then
        /// `readsPerSecond`: a projector's page asks about once a second.
        public var readBurst = 60
        public var readsPerSecond = 10.0
        /// Wrong room codes the whole room may send at once, then `wrongCodesPerSecond`, from
        /// whatever addresses: guessing the code from ten addresses is no faster than from one
        /// (a 6-character code: one chance in 160,000 in 3 hours). Beyond it a wrong code gets 429.
        public var wrongCodeBurst = 20
        public var wrongCodesPerSecond = 0.5
        /// Pages one address may have waiting for a change at once, and pages in all: a poll
        /// beyond either is answered at once (the page asks again a second later).
        public var maxWaitingPerAddress = 4
        public var maxWaitingPages = 64
        /// Learners on one board: a new name beyond this is refused.
        public var maxLearners = 200
        /// Columns when no exercise list is given (one per exercise id heard of).
        public var maxColumns = 64
        /// The longest a page's `GET /board/state.json?after=V` waits for a change.
        public var maxWaitSeconds = 25.0
        /// How often a waiting page's connection is looked at: a page whose client went away
        /// stops waiting within this.
        public var goneCheckSeconds = 0.25

        public init() {}
    }

    /// The paths the fixture server serves even when its pool is full
    /// (`FixtureServer(priorityPaths:)`): the learners' reports and joins.
    public static let priorityPaths = ["/board/report", "/board/join"]

    /// The code a report must carry, e.g. "K7P4QX".
    public let code: String
    public let settings: Settings
    let exercises: [BoardExercise]
    /// The room's language (the server's `--lang`): the page's, unless it is asked for another
    /// with `?lang=`. Nil: the browser's (Accept-Language).
    public let language: Language?

    /// What changes: read and written only inside `room.withLock`.
    private struct Room {
        var state: BoardState
        let store: BoardStore
        var limit: RateLimit
        var readLimit: RateLimit
        /// One bucket for the whole room (one key): wrong codes from any address.
        var wrongCodes: RateLimit
        var closed = false
        /// How many pages are waiting for a change right now (tests wait for one before posting).
        var waiting = 0
        /// The same, per client address.
        var waitingFrom: [String: Int] = [:]
        /// Where learners reach the server, as the server printed it ("http://192.168.1.23:8080"):
        /// the empty board shows the command to join with it. Nil: the address the page was asked at.
        var learnerURL: String?
    }
    private let room: Watched<Room>
    private let wallClock: @Sendable () -> Double
    let onEvent: (@Sendable (String) -> Void)?

    /// Opens (or creates) the board kept at `databasePath` and replays every report in it.
    ///
    /// - Parameters:
    ///   - exercises: the columns (see `BoardExercise.load`); empty: one per exercise id heard of.
    ///   - code: the room code to use; nil keeps the code of an earlier run of this database, or
    ///     makes a new one.
    ///   - language: the room's language, the page's unless `?lang=` asks for another; nil: the
    ///     browser's.
    ///   - onEvent: one line per accepted or refused report, for the server's log.
    public init(
        databasePath: String, exercises: [BoardExercise], code: String? = nil, language: Language? = nil,
        settings: Settings = Settings(), wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        onEvent: (@Sendable (String) -> Void)? = nil
    ) throws {
        if let code, RoomCode.normalized(code) == nil {
            throw BoardRefusal(
                "a room code is 6 to 12 letters and digits, without 0, 1, I, L and O (got '\(code)')")
        }
        let store = try BoardStore(path: databasePath)
        self.code = try store.roomCode(
            proposed: code.flatMap(RoomCode.normalized) ?? RoomCode.random(), replace: code != nil)
        self.exercises = exercises
        self.language = language
        self.settings = settings
        self.wallClock = wallClock
        self.onEvent = onEvent
        var state = BoardState(exercises: exercises)
        for row in try store.all() { state.apply(row.report, name: row.name, checkedAt: row.checkedAt) }
        room = Watched(
            Room(
                state: state, store: store,
                limit: RateLimit(burst: settings.burst, perSecond: settings.reportsPerSecond),
                readLimit: RateLimit(burst: settings.readBurst, perSecond: settings.readsPerSecond),
                wrongCodes: RateLimit(burst: settings.wrongCodeBurst, perSecond: settings.wrongCodesPerSecond)))
    }

    /// Wakes every waiting page; they answer at once from now on.
    public func close() { room.withLock { $0.closed = true } }

    // MARK: Reading

    public func snapshot() -> BoardSnapshot {
        let now = wallClock()
        return room.withLock { $0.state.snapshot(now: now) }
    }

    public var version: Int { room.withLock { $0.state.version } }

    /// Reports kept in the database.
    public func keptReports() throws -> Int { try room.withLock { try $0.store.count() } }

    /// Pages waiting for a change right now.
    public var waitingPages: Int { room.withLock { $0.waiting } }

    /// The board once its version is past `after`, or when `seconds` passed (or it closed, or
    /// the client went away: `clientIsGone` is asked every `goneCheckSeconds`). At once when
    /// `address` has `maxWaitingPerAddress` pages waiting already, or the board `maxWaitingPages`.
    func snapshot(
        after: Int, waitingAtMost seconds: Double, from address: String = "",
        clientIsGone: () -> Bool = { false }
    ) -> BoardSnapshot {
        let deadline = monotonicSeconds() + min(max(seconds, 0), settings.maxWaitSeconds)
        let now = wallClock()
        let atOnce = room.withLock { room -> BoardSnapshot? in
            let mine = room.waitingFrom[address, default: 0]
            guard room.state.version <= after, !room.closed, mine < settings.maxWaitingPerAddress,
                room.waiting < settings.maxWaitingPages
            else { return room.state.snapshot(now: now) }
            room.waiting += 1  // `withLock` wakes `wait(timeout:until:)`: a page is waiting now
            room.waitingFrom[address] = mine + 1
            return nil
        }
        if let atOnce { return atOnce }
        // A slice at a time: a client that went away is noticed within one.
        while monotonicSeconds() < deadline {
            let slice = min(deadline - monotonicSeconds(), settings.goneCheckSeconds)
            if room.wait(timeout: slice, until: { $0.state.version > after || $0.closed }) || clientIsGone() { break }
        }
        return room.withLock { room in
            room.waiting -= 1
            let left = room.waitingFrom[address, default: 1] - 1
            room.waitingFrom[address] = left > 0 ? left : nil
            return room.state.snapshot(now: wallClock())
        }
    }

    /// Waits until `condition` holds for the board or `timeout` passes; whether it holds. For tests.
    public func wait(timeout: Double, until predicate: (_ version: Int, _ waitingPages: Int) -> Bool) -> Bool {
        room.wait(timeout: timeout) { predicate($0.state.version, $0.waiting) }
    }

    // MARK: Writing

    enum Outcome: Equatable {
        case accepted(name: String, count: Int, version: Int)
        case refused(status: Int, reason: String)
    }

    /// Takes a learner's request (a join when `reports` is empty) from `address`: checks the
    /// rate, the code, the name and every report, keeps the reports in the database, then shows
    /// them. All of a request's reports are taken, or none.
    func take(_ batch: BoardBatch, from address: String, isJoin: Bool) -> Outcome {
        guard RoomCode.normalized(batch.code) == code else {
            let now = monotonicSeconds()
            if case .refused(let first) = room.withLock({ $0.wrongCodes.take("room", now: now) }) {
                if first {
                    onEvent?(localized("board: too many wrong room codes in the room: answering 429 for a while"))
                }
                return .refused(status: 429, reason: "too many wrong room codes in this room: wait a moment")
            }
            return .refused(status: 403, reason: "wrong room code: ask the instructor for the code the server printed")
        }
        let name: String
        do { name = try BoardRules.name(batch.name) } catch { return .refused(status: 400, reason: error.description) }
        if isJoin, !batch.reports.isEmpty {
            return .refused(status: 400, reason: "a join carries no reports")
        }
        if !isJoin, !(1...BoardRules.maxReportsPerBatch).contains(batch.reports.count) {
            return .refused(status: 400, reason: "a request carries 1 to \(BoardRules.maxReportsPerBatch) reports")
        }
        var reports: [BoardReport] = []
        for report in batch.reports {
            do { reports.append(try BoardRules.report(report)) } catch {
                return .refused(status: 400, reason: error.description)
            }
        }
        let now = wallClock()
        return room.withLock { room in  // `withLock` then wakes the pages waiting for a change
            if !room.state.knows(name), room.state.learnerCount >= settings.maxLearners {
                return .refused(status: 403, reason: "the board is full: \(settings.maxLearners) learners")
            }
            if let unknown = reports.first(where: {
                !room.state.accepts(exercise: $0.exercise, maxColumns: settings.maxColumns)
            }) {
                return .refused(status: 400, reason: "there is no exercise '\(unknown.exercise)' on this board")
            }
            let rows = reports.map { BoardStore.Row(name: name, report: $0, checkedAt: now - $0.ageSeconds) }
            let added: [BoardStore.Row]
            do { added = try room.store.append(rows, receivedAt: now, address: address) } catch {
                return .refused(status: 500, reason: "the board could not keep the report: \(error)")
            }
            for row in added { room.state.apply(row.report, name: row.name, checkedAt: row.checkedAt) }
            return .accepted(name: name, count: rows.count, version: room.state.version)
        }
    }

    /// Whether `address` may send one more request now.
    func allow(_ address: String) -> RateLimit.Answer {
        let now = monotonicSeconds()
        return room.withLock { $0.limit.take(address, now: now) }
    }

    /// Whether `address` may read the board (the page, its files, its JSON) once more now.
    func allowRead(_ address: String) -> RateLimit.Answer {
        let now = monotonicSeconds()
        return room.withLock { $0.readLimit.take(address, now: now) }
    }

    // MARK: Where learners join

    /// Tells the board where learners reach the server (e.g. "http://192.168.1.23:8080", as the
    /// server printed it): the empty board shows `workshop join` with it and the room code.
    public func setLearnerURL(_ url: String) { room.withLock { $0.learnerURL = url } }

    /// The command a learner types to join, with the address learners reach the server at: the
    /// one set with `setLearnerURL`, else `pageURL` (where the page was asked for).
    func joinCommand(pageURL: String) -> String {
        let url = room.withLock { $0.learnerURL } ?? pageURL
        return "swift run workshop join \(url) --name YOUR-NAME --code \(code)"
    }
}
