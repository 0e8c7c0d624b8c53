import Foundation
import WorkshopCore

/// The board's memory: every accepted report and the room code, in one SQLite file, so that a
/// server stopped any way (Ctrl-C, a crash, SIGKILL) and started again shows the same room.
/// A report is committed before the learner's `check` hears "accepted".
///
/// Not thread-safe on its own (one SQLite connection): `RoomBoard` calls it under its lock.
final class BoardStore {
    struct Row {
        var name: String
        var report: BoardReport
        var checkedAt: Double
    }

    private let database: SQLiteDatabase
    private let insert: SQLiteStatement

    init(path: String) throws {
        database = try SQLiteDatabase(path: path)
        // WAL: a commit is in the log file once `COMMIT` returns, so a killed process loses
        // none; NORMAL sync is enough for that (only a power cut could lose the last commits).
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS board_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS board_reports (
                id INTEGER PRIMARY KEY,
                received_at REAL NOT NULL,
                checked_at REAL NOT NULL,
                address TEXT NOT NULL,
                learner TEXT NOT NULL,
                exercise TEXT NOT NULL,
                passed INTEGER NOT NULL,
                failing_check TEXT, -- the failing check's id (an older board kept its English name)
                seconds_spent REAL NOT NULL,
                worst_freeze REAL,
                report_id TEXT
            );
            CREATE UNIQUE INDEX IF NOT EXISTS board_reports_once ON board_reports (learner, report_id);
            """)
        insert = try database.prepare(
            """
            INSERT INTO board_reports (received_at, checked_at, address, learner, exercise, passed, failing_check,
                seconds_spent, worst_freeze, report_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (learner, report_id) DO NOTHING
            """)
    }

    /// The room code kept from an earlier run, or `proposed` (kept from now on). A code given
    /// on the command line replaces the kept one, and so does `proposed` a kept code that is no
    /// longer a code (a 4-character one, from before codes had at least 6).
    func roomCode(proposed: String, replace: Bool) throws -> String {
        if !replace,
            let kept = try database.query("SELECT value FROM board_meta WHERE key = ?", ["code"]).first?
                .first?.string,
            RoomCode.normalized(kept) == kept
        {
            return kept
        }
        try database.run(
            "INSERT INTO board_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            ["code", .text(proposed)])
        return proposed
    }

    /// Keeps the reports of one request, all or none. Returns those that are new: a report whose
    /// id this learner sent before is kept once (NULL ids never collide in a UNIQUE index).
    func append(_ rows: [Row], receivedAt: Double, address: String) throws -> [Row] {
        try database.transaction {
            var added: [Row] = []
            for row in rows {
                try insert.run([
                    .real(receivedAt), .real(row.checkedAt), .text(address), .text(row.name),
                    .text(row.report.exercise), .integer(row.report.passed ? 1 : 0),
                    row.report.check.map(SQLValue.text) ?? .null, .real(row.report.secondsSpent),
                    row.report.worstFreezeSeconds.map(SQLValue.real) ?? .null,
                    row.report.id.map(SQLValue.text) ?? .null,
                ])
                if database.changes == 1 { added.append(row) }
            }
            return added
        }
    }

    /// Every report kept, in the order they were accepted. `failing_check` holds the check's
    /// id; a database kept by an older board holds its English name, made an id here.
    func all() throws -> [Row] {
        try database.query(
            """
            SELECT learner, exercise, passed, failing_check, seconds_spent, worst_freeze, checked_at
            FROM board_reports ORDER BY id
            """
        ).map { values in
            Row(
                name: values[0].string ?? "",
                report: BoardReport(
                    exercise: values[1].string ?? "", passed: values[2].int == 1,
                    check: values[3].string.map(BoardCheck.id(for:)).flatMap { $0.isEmpty ? nil : $0 },
                    secondsSpent: values[4].double ?? 0, worstFreezeSeconds: values[5].double),
                checkedAt: values[6].double ?? 0)
        }
    }

    /// How many reports are kept.
    func count() throws -> Int {
        Int(try database.query("SELECT count(*) FROM board_reports").first?.first?.int ?? 0)
    }
}

extension SQLValue {
    /// A REAL (or an INTEGER, which SQLite may hand back for a whole number) as a Double.
    var double: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}
