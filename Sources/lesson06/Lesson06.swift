import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson06: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson06",
        abstract: "SQLite upsert: the article's sqlite3 session replayed, why insert or replace is a delete, and a bulk save that never freezes the Screen.",
        discussion: """
        The no-thread variant saves N rows three ways (one row per commit, one transaction, \
        multi-row batches sized from SQLite's variable limit) on the main thread, so the Screen \
        freezes. The threaded variant does the same on a writer queue with its own connection \
        in WAL mode, while the main thread keeps drawing and reading a consistent row count.
        Sources: "Sqliteで既に存在するかもしれないprimary keyを持つ複数valesを一括insert" and \
        "Core Data では モデルの delete - insert をしない方が良い" (2010-05-24); see Lessons/06-sqlite-upsert.md.
        """
    )

    @OptionGroup var common: LessonOptions

    @Option(help: ArgumentHelp("Rows to upsert in the bulk save (1-1000000).", valueName: "n"))
    var rows = 100_000

    @Flag(help: "Run 'one row per commit' over all rows too (slow: one disk sync per row). By default it does the first 1000, for at most 1.5 s, and reports its speed from those.")
    var full = false

    @Option(help: ArgumentHelp("Rows per transaction in the multi-row strategy (1-1000000).", valueName: "k"))
    var batchRows = 10_000

    @Option(help: ArgumentHelp("Lower SQLite's bound-values-per-statement limit on the writer's connection, e.g. 999 as on the iPhones of 2010 (3 or more).", valueName: "values"))
    var variableLimit: Int?

    @Option(help: ArgumentHelp("Extra seconds each commit takes, to play a slow phone's storage (0-1).", valueName: "seconds"))
    var commitLatency = 0.0

    static let quickPerRowCommitRows = 1_000
    static let quickPerRowCommitSeconds = 1.5

    func validate() throws {
        guard (1...1_000_000).contains(rows) else { throw ValidationError("--rows must be between 1 and 1000000 (got \(rows))") }
        guard (1...1_000_000).contains(batchRows) else {
            throw ValidationError("--batch-rows must be between 1 and 1000000 (got \(batchRows))")
        }
        guard (0...1).contains(commitLatency) else {
            throw ValidationError("--commit-latency must be between 0 and 1 second (got \(commitLatency))")
        }
        if let variableLimit, variableLimit < SaveJob.columns.count {
            throw ValidationError("--variable-limit must be at least \(SaveJob.columns.count), one row's values (got \(variableLimit))")
        }
    }

    var job: SaveJob {
        var job = SaveJob()
        job.rows = rows
        job.perRowCommitRows = full ? rows : Self.quickPerRowCommitRows
        job.perRowCommitBudgetSeconds = full ? nil : Self.quickPerRowCommitSeconds
        job.batchRows = batchRows
        job.variableLimit = variableLimit
        job.commitLatencySeconds = commitLatency
        return job
    }

    func run() throws {
        let human = !common.json
        let scratch: ScratchDirectory
        do { scratch = try ScratchDirectory() } catch { throw LessonFailure("cannot create a temporary directory: \(error)") }
        defer { scratch.remove() }

        let limits: FiveHundredLimit.Findings
        do {
            if human { try explainTheArticle(in: scratch) }
            limits = try FiveHundredLimit.run(on: SQLiteDatabase(path: scratch.path("limits.sqlite")))
        } catch {
            throw LessonFailure("the SQLite demonstrations failed: \(error)")
        }
        if human {
            say("== 3. The 500 limit, then and now\n\n" + FiveHundredLimit.report(limits) + "\n")
            say("""
            == 4. Saving \(rows) rows (every tenth exists already) three ways, per variant
            one row per commit: \(job.rows(for: .perRowCommit)) rows\(full ? "" : " at most, for at most \(Self.quickPerRowCommitSeconds) s (--full: all)"); \
            one transaction: \(rows); multi-row batches: \(rows) in transactions of \(batchRows)
            database files in \(scratch.url.path) (removed at the end)

            """)
        }

        var settings = SaveRun.Settings()
        settings.job = job
        settings.output = .automatic(json: common.json)
        var runs: [SaveRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: every strategy on the main thread"
                    : "threaded: every strategy on writer-queue (own connection, WAL); main draws and reads the row count each frame")
            }
            let run = SaveRun.perform(variant, settings: settings, directory: scratch)
            if human, let failure = run.failure { say("  failed: \(failure)") }
            if human { say("") }
            runs.append(run)
        }

        let report = LessonReport(
            lesson: "06", title: "SQLite upsert: batches on a writer queue",
            parameters: [("rows", .count(rows)), ("perRowCommitRows", .count(job.rows(for: .perRowCommit))),
                         ("batchRows", .count(batchRows)), ("commitLatencySeconds", .seconds(commitLatency)),
                         ("sqliteVersion", .text(limits.libraryVersion)),
                         ("variableLimit", .count(variableLimit ?? limits.variableLimit)),
                         ("compoundSelectLimit", .count(limits.compoundSelectLimit))],
            variants: runs.map { VariantResult(name: $0.variant.rawValue, metrics: $0.metrics) },
            takeaway: Self.takeaway(runs))
        if common.json {
            say(report.json)
        } else {
            say(report.table + "\n\n" + report.takeaway)
        }
        if let failed = runs.first(where: { $0.failure != nil }) {
            throw LessonFailure("the \(failed.variant.rawValue) variant failed: \(failed.failure!)")
        }
    }

    /// Parts 1 and 2: the article's session, and what replace does beyond a blank column.
    func explainTheArticle(in scratch: ScratchDirectory) throws {
        say("Lesson 06: SQLite upsert (SQLite \(SQLiteDatabase.libraryVersion)).\n")
        let session = try ArticleSession.replay(on: SQLiteDatabase(path: scratch.path("article.sqlite")))
        say("== 1. The article's session, replayed on a real file (values bound, not typed in)\n")
        say(ArticleSession.transcript(session))
        say("== 2. The same change to row 100 made two ways, with replies (ON DELETE CASCADE), a delete trigger and a reader holding the row\n")
        for way in ReplaceHazards.Way.allCases {
            let database = try SQLiteDatabase(path: scratch.path("hazards-\(way == .replace ? "replace" : "upsert").sqlite"))
            say(ReplaceHazards.report(way, try ReplaceHazards.run(way, on: database)))
        }
        say("")
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [SaveRun]) -> String {
        guard let plain = runs.first(where: { $0.variant == .noThread }),
              let queued = runs.first(where: { $0.variant == .threaded }) else {
            return "Run both variants (the default) to compare them."
        }
        func speed(_ run: SaveRun, _ strategy: SaveStrategy) -> Double {
            run.results.first { $0.strategy == strategy }?.rowsPerSecond ?? 0
        }
        let perRow = speed(queued, .perRowCommit), batched = speed(queued, .multiRowBatches)
        return String(format: """
            Batching is what made the save fast (%.0f rows/s one row per commit, %.0f rows/s in multi-row batches, %.0fx); \
            the writer queue is what kept the Screen alive: the worst freeze went from %.2f s to %.3f s, \
            and the main thread read the count %d times, %d of them torn.
            """, perRow, batched, perRow > 0 ? batched / perRow : 0,
            plain.screen.maxStallSeconds, queued.screen.maxStallSeconds, queued.countReadsOnMain, queued.tornReads.count)
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
