import Foundation
import WorkshopCore

/// The room's board: who is stuck, on which exercise, for the instructor's projector.
///
/// Learners' `workshop check` runs post reports (`POST /board/report`, with the room code);
/// the board keeps each one in SQLite before it answers, and `/board` draws the room. Served by
/// the fixture server as its own pages (`FixtureServer(ownRoutes: board.routes)`), so nothing a
/// learner sends reaches the lesson API, and the lesson API's knobs never touch the board.
// @unchecked: every mutable field (`state`, `store`, `limit`, `closed`) is read and written only
// with `condition` locked; the condition also wakes the pages waiting for a change.
public final class RoomBoard: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Reports (and joins) one address may send at once, then `reportsPerSecond`.
        public var burst = 30
        public var reportsPerSecond = 5.0
        /// Learners on one board: a new name beyond this is refused.
        public var maxLearners = 200
        /// Columns when no exercise list is given (one per exercise id heard of).
        public var maxColumns = 64
        /// The longest a page's `GET /board/state.json?after=V` waits for a change.
        public var maxWaitSeconds = 25.0

        public init() {}
    }

    /// The code a report must carry, e.g. "K7P4QX".
    public let code: String
    public let settings: Settings
    let exercises: [BoardExercise]

    private let condition = NSCondition()
    private var state: BoardState
    private let store: BoardStore
    private var limit: RateLimit
    private var closed = false
    /// How many pages are waiting for a change right now (tests wait for one before posting).
    private var waiting = 0
    private let wallClock: @Sendable () -> Double
    let onEvent: (@Sendable (String) -> Void)?

    /// Opens (or creates) the board kept at `databasePath` and replays every report in it.
    ///
    /// - Parameters:
    ///   - exercises: the columns (see `BoardExercise.load`); empty: one per exercise id heard of.
    ///   - code: the room code to use; nil keeps the code of an earlier run of this database, or
    ///     makes a new one.
    ///   - onEvent: one line per accepted or refused report, for the server's log.
    public init(
        databasePath: String, exercises: [BoardExercise], code: String? = nil, settings: Settings = Settings(),
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        onEvent: (@Sendable (String) -> Void)? = nil
    ) throws {
        if let code, RoomCode.normalized(code) == nil {
            throw BoardRefusal(
                "a room code is 4 to 12 letters and digits, without 0, 1, I, L and O (got '\(code)')")
        }
        store = try BoardStore(path: databasePath)
        self.code = try store.roomCode(
            proposed: code.flatMap(RoomCode.normalized) ?? RoomCode.random(), replace: code != nil)
        self.exercises = exercises
        self.settings = settings
        self.wallClock = wallClock
        self.onEvent = onEvent
        limit = RateLimit(burst: settings.burst, perSecond: settings.reportsPerSecond)
        state = BoardState(exercises: exercises)
        for row in try store.all() { state.apply(row.report, name: row.name, checkedAt: row.checkedAt) }
    }

    /// Wakes every waiting page; they answer at once from now on.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func locked<R>(_ body: () throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Reading

    public func snapshot() -> BoardSnapshot {
        let now = wallClock()
        return locked { state.snapshot(now: now) }
    }

    public var version: Int { locked { state.version } }

    /// Reports kept in the database.
    public func keptReports() throws -> Int { try locked { try store.count() } }

    /// Pages waiting for a change right now.
    public var waitingPages: Int { locked { waiting } }

    /// The board once its version is past `after`, or when `seconds` passed (or it closed).
    func snapshot(after: Int, waitingAtMost seconds: Double) -> BoardSnapshot {
        let deadline = Date(timeIntervalSinceNow: min(max(seconds, 0), settings.maxWaitSeconds))
        condition.lock()
        waiting += 1
        condition.broadcast()  // for `wait(timeout:until:)`: a page is waiting now
        while state.version <= after, !closed {
            if !condition.wait(until: deadline) { break }
        }
        waiting -= 1
        let result = state.snapshot(now: wallClock())
        condition.unlock()
        return result
    }

    /// Waits until `condition` holds for the board or `timeout` passes; whether it holds. For tests.
    public func wait(timeout: Double, until predicate: (_ version: Int, _ waitingPages: Int) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(state.version, waiting) {
            if !condition.wait(until: deadline) { return predicate(state.version, waiting) }
        }
        return true
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
        return locked {
            if !state.knows(name), state.learnerCount >= settings.maxLearners {
                return .refused(status: 403, reason: "the board is full: \(settings.maxLearners) learners")
            }
            if let unknown = reports.first(where: {
                !state.accepts(exercise: $0.exercise, maxColumns: settings.maxColumns)
            }) {
                return .refused(status: 400, reason: "there is no exercise '\(unknown.exercise)' on this board")
            }
            let rows = reports.map { BoardStore.Row(name: name, report: $0, checkedAt: now - $0.ageSeconds) }
            let added: [BoardStore.Row]
            do { added = try store.append(rows, receivedAt: now, address: address) } catch {
                return .refused(status: 500, reason: "the board could not keep the report: \(error)")
            }
            for row in added { state.apply(row.report, name: row.name, checkedAt: row.checkedAt) }
            condition.broadcast()
            return .accepted(name: name, count: rows.count, version: state.version)
        }
    }

    /// Whether `address` may send one more request now.
    func allow(_ address: String) -> RateLimit.Answer {
        let now = monotonicSeconds()
        return locked { limit.take(address, now: now) }
    }
}
