import CSQLite
import Testing

@testable import WorkshopCore

@Suite("SQLite wrapper")
struct SQLiteTests {
    @Test("values round-trip verbatim, bound, never spliced")
    func roundTrip() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, message TEXT, flg INTEGER, data BLOB)")
        let tricky = "'); DROP TABLE t;-- \"quoted\" nul:\u{0}: emoji 🍣 サクサク"
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [1, .text(tricky), nil, .blob([0, 1, 255])])
        let rows = try db.query("SELECT id, message, flg, data FROM t")
        #expect(rows == [[1, .text(tricky), .null, .blob([0, 1, 255])]])
    }

    @Test("constraint failures carry SQLite's message and change nothing")
    func constraint() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE tblA (id INTEGER PRIMARY KEY, message TEXT)")
        try db.run("INSERT INTO tblA VALUES (?, ?)", [1, "a"])
        do {
            try db.run("INSERT INTO tblA VALUES (?, ?)", [1, "b"])
            Issue.record("a duplicate key must fail")
        } catch let error as SQLiteError {
            #expect(error.isConstraint)
            #expect(error.message.contains("UNIQUE constraint failed: tblA.id"))
        }
        #expect(try db.query("SELECT message FROM tblA") == [["a"]])
    }

    @Test("a failing transaction rolls back")
    func rollback() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (?)", [1])
                try db.run("INSERT INTO t VALUES (?)", [1])
            }
        }
        #expect(try db.query("SELECT count(*) FROM t") == [[0]])
    }

    @Test("limits can be read and lowered")
    func limits() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        #expect(db.limit(SQLITE_LIMIT_VARIABLE_NUMBER) >= 999)
        db.setLimit(SQLITE_LIMIT_VARIABLE_NUMBER, to: 7)
        #expect(db.limit(SQLITE_LIMIT_VARIABLE_NUMBER) == 7)
        #expect(throws: SQLiteError.self) { try db.prepare("SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8") }
    }
}
