import Foundation
import Lesson06Kit
import Testing
import WorkshopCore

/// The SQL side of lesson 06, without threads: the article's session, replace vs upsert,
/// the limits, batching, bound values, and what a failing batch leaves behind.
@Suite("Lesson 06: SQLite upsert")
struct Lesson06SQLTests {
    /// A database file in its own temporary directory, removed when the test ends.
    final class TemporaryDatabase {
        let scratch: ScratchFolder
        let database: SQLiteDatabase
        init() throws {
            scratch = try ScratchFolder("lesson06-test")
            database = try SQLiteDatabase(path: scratch.file("test.sqlite"))
        }
        deinit { scratch.tearDown() }
    }

    @Test("every step of the replay prints the article's rows")
    func replay() throws {
        let file = try TemporaryDatabase()
        let outcomes = try ArticleSession.replay(on: file.database)
        #expect(outcomes.count == ArticleSession.expectedRows.count)
        for (index, outcome) in outcomes.enumerated() {
            #expect(outcome.rows == ArticleSession.expectedRows[index], "step \(index + 1): \(outcome.step.title)")
        }
        // Only step 3 fails, with SQLite's own message, as in the article.
        #expect(outcomes.map { $0.error != nil } == [false, false, true, false, false, false, false, false, false])
        #expect(outcomes[2].error == "UNIQUE constraint failed: tblA.id")
        // The transcript shows what sqlite3 shows.
        let transcript = ArticleSession.transcript(outcomes)
        #expect(transcript.contains("sqlite> select * from tblA order by id;\n100||1\n200|b|0\n300||1\n"))
    }

    @Test("an upsert keeps the columns it does not name; insert or replace blanks them")
    func upsertKeepsReplaceBlanks() throws {
        let file = try TemporaryDatabase()
        let db = file.database
        try db.execute(ArticleSchema.table)
        try db.run(
            "insert into tblA (id, message, flg) values (?, ?, ?), (?, ?, ?)",
            ["1", "keep me", 0, "2", "keep me too", 0])

        try db.run(
            "insert into tblA (id, flg) values (?, ?) on conflict(id) do update set flg = excluded.flg", ["1", 1])
        try db.run("insert or replace into tblA (id, flg) values (?, ?)", ["2", 1])

        #expect(try db.shellLines("select * from tblA order by id") == ["1|keep me|1", "2||1"])
    }

    @Test(
        "replace deletes: new rowid, delete trigger, cascade children gone, reader loses the row; upsert does none of it"
    )
    func cascade() throws {
        // Keep each file object alive while its database is used: its deinit removes the file.
        let replaceFile = try TemporaryDatabase()
        let upsertFile = try TemporaryDatabase()
        let replaced = try ReplaceHazards.run(.replace, on: replaceFile.database)
        #expect(replaced.rowAfter == "100|A|1")
        #expect(replaced.rowidAfter != replaced.rowidBefore)
        #expect(replaced.childrenBefore == 2)
        #expect(replaced.childrenAfter == 0)
        #expect(replaced.deletesLogged == 1)
        #expect(replaced.readerSees == nil)

        let upserted = try ReplaceHazards.run(.upsert, on: upsertFile.database)
        #expect(upserted.rowAfter == "100|A|1")
        #expect(upserted.rowidAfter == upserted.rowidBefore)
        #expect(upserted.childrenAfter == 2)
        #expect(upserted.deletesLogged == 0)
        #expect(upserted.readerSees == "100|A|1")
    }

    @Test("the 500 limit: compound SELECT fails at 501 terms, VALUES does not, bound values do")
    func fiveHundred() throws {
        let file = try TemporaryDatabase()
        let findings = try FiveHundredLimit.run(on: file.database)
        #expect(findings.compoundSelectLimit == 500)
        #expect(findings.compoundAtLimitWorked)
        #expect(findings.compoundOverLimitError == "too many terms in compound SELECT")
        #expect(findings.valuesOverCompoundLimitWorked)
        #expect(findings.tooManyVariablesError == "too many SQL variables")
        #expect(findings.batchedRowsPerStatement == 333)
        #expect(findings.batchedStatements == 4)
        #expect(findings.batchedRowsWritten == 1_000)
    }

    @Test("batches follow the variable limit when it is lowered", arguments: [999, 7])
    func batchingFollowsTheLimit(limit: Int) throws {
        let file = try TemporaryDatabase()
        let db = file.database
        var job = SaveJob()
        job.rows = 1_000
        try job.prepare(db)
        db.variableLimit = limit
        #expect(db.variableLimit == limit)

        // One row more than the limit allows, in one statement: SQLite refuses.
        let tooMany = limit / 3 + 1
        #expect(throws: SQLiteError.self) {
            try db.run(
                "insert into tblA (id, message, flg) values "
                    + Array(repeating: "(?, ?, ?)", count: tooMany).joined(separator: ", "),
                (1...tooMany).flatMap(SaveJob.row))
        }

        let batcher = try UpsertBatcher(database: db, table: "tblA", columns: ArticleSchema.columns, key: "id")
        #expect(batcher.rowsPerStatement == limit / 3)
        let commits = try BulkSave.writeInTransactions(
            (1...job.rows).map(SaveJob.row), batchRows: 400,
            with: batcher
        ) { _ in }
        #expect(commits == 3)
        #expect(batcher.statementsRun == [400, 400, 200].map { ($0 + limit / 3 - 1) / (limit / 3) }.reduce(0, +))
        #expect(try db.query("select count(*) from tblA") == [[.integer(Int64(job.rows))]])
        #expect(try db.shellLines("select * from tblA where id = ?", ["0000010"]) == ["0000010|message 10|0"])
        #expect(try db.query("select count(*) from tblA where message = 'old'") == [[0]])
    }

    @Test("the whole bulk save gives the same table with the limit at 7 as with SQLite's own")
    func bulkSaveWithATinyLimit() throws {
        var job = SaveJob()
        job.rows = 600
        job.batchRows = 250
        var digests: [String] = []
        for limit in [nil, 7] {
            let file = try TemporaryDatabase()
            job.variableLimit = limit
            try job.prepare(file.database)
            let result = try BulkSave.run(.multiRowBatches, job: job, on: file.database) { _ in }
            #expect(result.rowsPerStatement == (limit == nil ? 250 : 2))
            #expect(result.commits == 3)
            digests.append(try BulkSave.digest(of: file.database))
        }
        #expect(digests[0] == digests[1])
    }

    @Test("the pre-3.24 way (update, then insert or ignore, one transaction) leaves the same rows as the upsert")
    func updateThenInsertMatchesTheUpsert() throws {
        var job = SaveJob()
        job.rows = 2_000
        job.batchRows = 700
        var digests: [SaveStrategy: String] = [:]
        for strategy in [SaveStrategy.oneTransaction, .multiRowBatches, .updateThenInsert] {
            let file = try TemporaryDatabase()
            try job.prepare(file.database)
            let result = try BulkSave.run(strategy, job: job, on: file.database) { _ in }
            #expect(result.rows == 2_000)
            digests[strategy] = try BulkSave.digest(of: file.database)
            if strategy == .updateThenInsert {
                #expect(result.commits == 1)
                // Every row holds the job's values: the 200 seeded rows were updated, not skipped.
                #expect(try file.database.query("select count(*) from tblA where message = 'old'") == [[.integer(0)]])
                #expect(try file.database.query("select count(*) from tblA") == [[.integer(2_000)]])
            }
        }
        #expect(Set(digests.values).count == 1, "\(digests)")
    }

    @Test("tricky values round-trip verbatim: they are bound, never spliced into SQL")
    func trickyStrings() throws {
        let file = try TemporaryDatabase()
        let db = file.database
        try db.execute(ArticleSchema.table)
        let tricky = [
            "'); DROP TABLE tblA;--", "nul:\u{0}:end", "it's \"quoted\"", "emoji 🍣👍🏽 サクサク",
            "", "back\\slash", "line\nbreak", "%s %d ?1 :name", "\u{0}",
        ]
        db.variableLimit = 7  // two rows per statement: values cross statement boundaries too
        let batcher = try UpsertBatcher(database: db, table: "tblA", columns: ArticleSchema.columns, key: "id")
        let rows: [[SQLValue]] = tricky.map { [.text($0), .text($0 + $0), .integer(1)] }
        _ = try BulkSave.writeInTransactions(rows, batchRows: 4, with: batcher) { _ in }
        // The same values again: every key exists, so this is the update path.
        _ = try BulkSave.writeInTransactions(rows.map { [$0[0], $0[0], 0] }, batchRows: 4, with: batcher) { _ in }

        #expect(try db.query("select count(*) from tblA") == [[.integer(Int64(tricky.count))]])
        for value in tricky {
            let found = try db.query("select id, message, flg from tblA where id = ?", [.text(value)])
            #expect(found == [[.text(value), .text(value), 0]], "\(value.debugDescription)")
        }
    }

    @Test("a constraint error inside a batch rolls back that batch only; earlier batches stay")
    func failingBatch() throws {
        let file = try TemporaryDatabase()
        let db = file.database
        try db.execute(
            "create table tblA (id text, message text, flg boolean not null check (flg in (0, 1)), primary key (id))")
        let batcher = try UpsertBatcher(database: db, table: "tblA", columns: ArticleSchema.columns, key: "id")
        var rows = (1...30).map(SaveJob.row)
        rows[14][2] = 7  // row 15, in the middle of the second batch of 10
        var committed: [Int] = []
        do {
            _ = try BulkSave.writeInTransactions(rows, batchRows: 10, with: batcher) { committed.append($0) }
            Issue.record("row 15 breaks the CHECK constraint; the save must fail")
        } catch let error as SQLiteError {
            #expect(error.isConstraint)
            #expect(error.message.contains("CHECK constraint failed"), "\(error.message)")
        }
        #expect(committed == [10])
        #expect(!db.isInTransaction, "the failed batch was rolled back, not left open")
        // Batch 1 is there, whole; nothing of batch 2 (not even rows 11-14), nothing of batch 3.
        let ids = try db.query("select id from tblA order by id").compactMap { $0.first?.string }
        #expect(ids == (1...10).map(SaveJob.id))
    }

    @Test("the counts a reader may see are the commit boundaries only")
    func consistentCounts() {
        var job = SaveJob()
        job.rows = 100
        job.batchRows = 30
        // 10 rows exist; each batch adds its rows minus the ones that existed (every tenth).
        #expect(job.consistentCounts(for: .multiRowBatches) == [10, 37, 64, 91, 100])
        #expect(job.consistentCounts(for: .oneTransaction) == [10, 100])
        #expect(job.consistentCounts(for: .updateThenInsert) == [10, 100])
        #expect(job.consistentCounts(for: .perRowCommit).count == 91)
    }
}
