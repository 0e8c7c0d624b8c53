import Foundation
import WorkshopCore

/// An exercise as the board shows it: a column.
public struct BoardExercise: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var titleJapanese: String
    /// Its own checks, as its catalog entry names them (not in the board's JSON: a cell carries
    /// the names of the check it fails).
    public var checks: [BoardCheck]

    public init(id: String, title: String, titleJapanese: String, checks: [BoardCheck] = []) {
        self.id = id
        self.title = title
        self.titleJapanese = titleJapanese
        self.checks = checks
    }

    enum CodingKeys: String, CodingKey { case id, title, titleJapanese }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(String.self, forKey: .id), title: try values.decode(String.self, forKey: .title),
            titleJapanese: try values.decode(String.self, forKey: .titleJapanese))
    }

    /// The check whose id is `id`: one of the exercise's own, or one the workshop runs itself.
    public func check(_ id: String) -> BoardCheck? {
        checks.first { $0.id == id } ?? BoardCheck.workshopChecks.first { $0.id == id }
    }

    /// The exercises under `root`/Exercises, read from each folder's `.meta/exercise.json`, in
    /// the catalog's order (lesson exercises by id, then those of no lesson). Empty when there
    /// are none: the board then makes a column for each exercise it hears of.
    public static func load(root: URL) -> [BoardExercise] {
        struct Meta: Decodable {
            struct Titles: Decodable {
                var en: String
                var ja: String
            }
            var id: String
            var lesson: String?
            var title: Titles
            var checks: [Titles]?
        }
        let folder = root.appendingPathComponent("Exercises")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let metas = names.sorted().compactMap { name -> Meta? in
            let file = folder.appendingPathComponent(name + "/.meta/exercise.json")
            guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
            return try? JSONDecoder().decode(Meta.self, from: data)
        }
        return metas.sorted { ($0.lesson == nil ? 1 : 0, $0.id) < ($1.lesson == nil ? 1 : 0, $1.id) }
            .map { meta in
                BoardExercise(
                    id: meta.id, title: meta.title.en, titleJapanese: meta.title.ja,
                    checks: (meta.checks ?? []).map { BoardCheck(name: $0.en, nameJapanese: $0.ja) })
            }
    }
}

/// What the board page draws, as `GET /board/state.json` sends it. Times are seconds.
public struct BoardSnapshot: Codable, Sendable, Equatable {
    public struct Column: Codable, Sendable, Equatable {
        public var exercise: BoardExercise
        /// The room's count: learners who passed it, and who are failing it.
        public var passed: Int
        public var failing: Int
    }
    public struct Cell: Codable, Sendable, Equatable {
        public var exercise: String
        public var passed: Bool
        /// The id of the check it fails (nil when passed, or when the report named none).
        public var failingCheck: String?
        /// That check's names, from the board's catalog: nil when the catalog has no such check
        /// (the page then says only that it fails; it never shows what a learner sent).
        public var failingCheckName: String?
        public var failingCheckNameJapanese: String?
        /// How long the same check has been failing (nil when passed).
        public var failingForSeconds: Double?
        public var secondsSpent: Double
        public var worstFreezeSeconds: Double?
        public var checks: Int
    }
    public struct Learner: Codable, Sendable, Equatable {
        public var name: String
        /// The exercise of the learner's latest check.
        public var current: String
        /// How long the learner's current exercise has failed the same check (nil: not stuck).
        public var stuckSeconds: Double?
        public var lastSeenSecondsAgo: Double
        /// One per exercise the learner has checked; an exercise not here is not started.
        public var cells: [Cell]
    }
    /// Grows with every accepted report: the page redraws when it changes.
    public var version: Int
    public var columns: [Column]
    /// Who has been failing the same check longest first, then the others by name.
    public var learners: [Learner]
}

/// The room as the reports so far make it: per learner and exercise, the latest state. Reports
/// are applied in the order they were accepted (the database keeps that order), so a board
/// rebuilt from the database after a restart is the board before it.
struct BoardState {
    struct Cell {
        var passed = false
        /// The failing check's id.
        var failingCheck: String?
        /// When the same check started failing (wall-clock seconds).
        var failingSince: Double?
        var secondsSpent = 0.0
        var worstFreezeSeconds: Double?
        /// When the latest check applied here ran.
        var checkedAt = -Double.infinity
        var checks = 0
    }
    struct Learner {
        var cells: [String: Cell] = [:]
        var current = ""
        var lastCheckedAt = -Double.infinity
    }

    let exercises: [BoardExercise]
    private(set) var learners: [String: Learner] = [:]
    /// Exercise ids heard of that are not in `exercises` (only when no list was given).
    private(set) var extraExercises: [String] = []
    private(set) var version = 0

    init(exercises: [BoardExercise]) { self.exercises = exercises }

    var learnerCount: Int { learners.count }

    func knows(_ name: String) -> Bool { learners[name] != nil }

    /// Whether a report of `exercise` can have a column: one of the known exercises, or when
    /// none are known, one of the first `maxColumns` heard of.
    func accepts(exercise: String, maxColumns: Int) -> Bool {
        if !exercises.isEmpty { return exercises.contains { $0.id == exercise } }
        return extraExercises.contains(exercise) || extraExercises.count < maxColumns
    }

    /// Applies one report of a check that ran at `checkedAt`. A report older than what the
    /// board has for that exercise (sent late, after a newer one) changes nothing shown.
    mutating func apply(_ report: BoardReport, name: String, checkedAt: Double) {
        version += 1
        if exercises.isEmpty, !extraExercises.contains(report.exercise) { extraExercises.append(report.exercise) }
        var learner = learners[name] ?? Learner()
        var cell = learner.cells[report.exercise] ?? Cell()
        cell.checks += 1
        if checkedAt >= cell.checkedAt {
            if report.passed {
                cell.failingCheck = nil
                cell.failingSince = nil
            } else if cell.failingSince == nil || cell.failingCheck != report.check {
                cell.failingCheck = report.check
                cell.failingSince = checkedAt
            }
            cell.passed = report.passed
            cell.secondsSpent = report.secondsSpent
            cell.worstFreezeSeconds = report.worstFreezeSeconds
            cell.checkedAt = checkedAt
        }
        learner.cells[report.exercise] = cell
        if checkedAt >= learner.lastCheckedAt {
            learner.lastCheckedAt = checkedAt
            learner.current = report.exercise
        }
        learners[name] = learner
    }

    /// The board as the page draws it at wall-clock time `now`.
    func snapshot(now: Double) -> BoardSnapshot {
        let columnExercises =
            exercises.isEmpty
            ? extraExercises.map { BoardExercise(id: $0, title: $0, titleJapanese: $0) } : exercises
        let columns = columnExercises.map { exercise in
            let cells = learners.values.compactMap { $0.cells[exercise.id] }
            return BoardSnapshot.Column(
                exercise: exercise, passed: cells.filter(\.passed).count, failing: cells.filter { !$0.passed }.count)
        }
        let rows = learners.map { name, learner in
            let cells = columnExercises.compactMap { exercise in
                learner.cells[exercise.id].map { cell in
                    let check = cell.failingCheck.flatMap { exercise.check($0) }
                    return BoardSnapshot.Cell(
                        exercise: exercise.id, passed: cell.passed, failingCheck: cell.failingCheck,
                        failingCheckName: check?.name, failingCheckNameJapanese: check?.nameJapanese,
                        failingForSeconds: cell.failingSince.map { max(0, now - $0) },
                        secondsSpent: cell.secondsSpent, worstFreezeSeconds: cell.worstFreezeSeconds,
                        checks: cell.checks)
                }
            }
            let stuck = learner.cells[learner.current].flatMap { $0.failingSince }.map { max(0, now - $0) }
            return BoardSnapshot.Learner(
                name: name, current: learner.current, stuckSeconds: stuck,
                lastSeenSecondsAgo: max(0, now - learner.lastCheckedAt), cells: cells)
        }
        let ordered = rows.sorted { a, b in
            switch (a.stuckSeconds, b.stuckSeconds) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.name < b.name
            }
        }
        return BoardSnapshot(version: version, columns: columns, learners: ordered)
    }
}
