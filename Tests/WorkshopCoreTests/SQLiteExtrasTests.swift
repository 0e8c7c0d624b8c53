import Testing

@testable import WorkshopCore

@Suite("SQLite wrapper: shell format, limits, statement counter")
struct SQLiteShellFormatTests {
    @Test("rows print as the sqlite3 shell prints them: id|message|flg, NULL as nothing")
    func shellLines() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("create table tblA (id text, message text, flg boolean, primary key (id))")
        try db.run("insert into tblA (id, flg) values (?, ?)", ["100", 1])
        try db.run("insert into tblA (id, message, flg) values (?, ?, ?)", ["200", "b", 0])
        #expect(try db.shellLines("select * from tblA order by id") == ["100||1", "200|b|0"])
    }

    @Test("the variable limit can be read and lowered per connection")
    func variableLimit() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        let original = db.variableLimit
        #expect(original >= 999)
        db.variableLimit = 7
        #expect(db.variableLimit == 7)
        #expect(try SQLiteDatabase(path: ":memory:").variableLimit == original)
        #expect(db.compoundSelectLimit == 500)
        #expect(db.sqlLengthLimit > 1_000)
    }

    @Test("statements are counted, BEGIN and COMMIT included, and only while counting")
    func countingStatements() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("create table t (x)")
        let (_, statements) = try db.countingStatements {
            try db.transaction {
                try db.run("insert into t values (?), (?)", [1, 2])
                try db.run("insert into t values (?)", [3])
            }
        }
        #expect(statements == 4)
        #expect(!db.isInTransaction)
        let (_, none) = db.countingStatements { 0 }
        #expect(none == 0)
    }
}
