import WorkshopCore

/// Why `insert or replace` is more dangerous than a blank column: it is a DELETE followed by
/// an INSERT, and everything that watches deletes sees one.
///
/// The same change (row '100' gets message 'A', flg 1) is made once with `insert or replace`
/// and once with an upsert, on a table that has
/// - child rows (`reply`) with a foreign key `ON DELETE CASCADE`,
/// - a delete trigger that logs every deleted id,
/// - a "reader" that remembered the row's rowid before the change, the way table view A in
///   "Core Data では モデルの delete - insert をしない方が良い" (2010-05-24) held on to
///   objects that table view B then deleted and re-inserted.
public enum ReplaceHazards {
    public enum Way: String, CaseIterable, Sendable {
        case replace = "insert or replace"
        case upsert = "upsert (on conflict do update)"

        var sql: String {
            switch self {
            case .replace:
                "insert or replace into tblA (id, message, flg) values (?, ?, ?)"
            case .upsert:
                "insert into tblA (id, message, flg) values (?, ?, ?) on conflict(id) do update set message = excluded.message, flg = excluded.flg"
            }
        }
    }

    public struct Findings: Sendable, Equatable {
        public var rowidBefore: Int64
        public var rowidAfter: Int64
        public var childrenBefore: Int
        public var childrenAfter: Int
        /// Rows the delete trigger logged.
        public var deletesLogged: Int
        /// What the reader's remembered rowid finds afterwards (nil: the row is gone for it).
        public var readerSees: String?
        public var rowAfter: String
    }

    static let schema = """
        PRAGMA foreign_keys = ON;
        -- REPLACE fires delete triggers only with recursive triggers on; apps that rely on
        -- triggers usually have it on. Foreign key actions fire either way.
        PRAGMA recursive_triggers = ON;
        \(ArticleSchema.table);
        \(ArticleSchema.replies);
        create table deleted_log (id text);
        create trigger tblA_deleted after delete on tblA begin insert into deleted_log (id) values (old.id); end;
        """

    /// Makes the change `way` on a fresh schema in `database` and reports what happened.
    public static func run(_ way: Way, on database: SQLiteDatabase) throws -> Findings {
        try database.execute(schema)
        try database.run("insert into tblA (id, message, flg) values (?, ?, ?)", ["100", "a", 0])
        try database.run(
            "insert into reply (parent, body) values (?, ?), (?, ?)", ["100", "first reply", "100", "second reply"])

        // The reader (table view A) keeps a handle on the row: here its rowid.
        let remembered = try rowid(of: "100", in: database)
        let childrenBefore = try count("reply", in: database)

        try database.run(way.sql, ["100", "A", 1])

        let readerRows = try database.shellLines(
            "select id, message, flg from tblA where rowid = ?", [.integer(remembered)])
        return Findings(
            rowidBefore: remembered,
            rowidAfter: try rowid(of: "100", in: database),
            childrenBefore: childrenBefore,
            childrenAfter: try count("reply", in: database),
            deletesLogged: try count("deleted_log", in: database),
            readerSees: readerRows.first,
            rowAfter: try database.shellLines("select * from tblA where id = ?", ["100"]).first ?? "")
    }

    private static func rowid(of id: String, in database: SQLiteDatabase) throws -> Int64 {
        try database.query("select rowid from tblA where id = ?", [.text(id)]).first?.first?.int ?? -1
    }

    /// `table` is one of this file's own table names (names cannot be bound).
    private static func count(_ table: String, in database: SQLiteDatabase) throws -> Int {
        Int(try database.query("select count(*) from \(table)").first?.first?.int ?? -1)
    }

    static func report(_ way: Way, _ findings: Findings) -> String {
        let sameRow = findings.rowidBefore == findings.rowidAfter
        let cascaded = findings.childrenAfter < findings.childrenBefore
        return [
            localized("%@: row now %@", way.rawValue, findings.rowAfter),
            localized(
                "  rowid %d -> %d%@", findings.rowidBefore, findings.rowidAfter,
                localized(sameRow ? " (same row)" : " (a new row)")),
            localized(
                "  replies %d -> %d%@", findings.childrenBefore, findings.childrenAfter,
                cascaded ? localized(" (ON DELETE CASCADE removed them)") : ""),
            localized("  delete trigger fired %d time(s)", findings.deletesLogged),
            localized(
                "  the reader's remembered rowid finds: %@",
                findings.readerSees ?? localized("nothing (its row was deleted)")),
        ].joined(separator: "\n")
    }
}
