import ArgumentParser
import Foundation
import Lesson06Kit
import WorkshopCore

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson06: LessonProgram {
    static let configuration = commandConfiguration(
        abstract: localized(
            "SQLite upsert: the article's sqlite3 session replayed, why insert or replace is a delete, and a bulk save that never freezes the Screen."
        ),
        discussion: localized(
            """
            The no-thread variant saves N rows four ways (one row per commit, one transaction, \
            multi-row batches sized from SQLite's variable limit, and the pre-3.24 update then \
            insert or ignore) on the main thread, so the Screen freezes. The threaded variant does \
            the same on a writer queue with its own connection in WAL mode, while the main thread \
            keeps drawing and reading a consistent row count. The async variant does it in Swift 6: \
            a writer actor owns the connection and a main-actor task awaits each save.
            Sources: "Sqliteで既に存在するかもしれないprimary keyを持つ複数valesを一括insert" and \
            "Core Data では モデルの delete - insert をしない方が良い" (2010-05-24); see Lessons/06-sqlite-upsert.md, in Japanese Lessons/ja/06-sqlite-upsert.md.
            """))
    static let contract = LessonContract.lesson06

    @OptionGroup var common: LessonOptions

    @Option(Lesson06Flags.rows, help: localized("Rows to upsert in the bulk save"), valueName: "n")
    var rows = 100_000

    @Flag(
        help: ArgumentHelp(
            localized(
                "Run 'one row per commit' over all rows too (slow: one disk sync per row). By default it does the first 1000, for at most 1.5 s, and reports its speed from those."
            ))
    )
    var full = false

    @Option(Lesson06Flags.batchRows, help: localized("Rows per transaction in the multi-row strategy"), valueName: "k")
    var batchRows = 10_000

    @Option(
        Lesson06Flags.variableLimit,
        help: localized(
            "Lower SQLite's bound-values-per-statement limit on the writer's connection, e.g. 999 as on the iPhones of 2010"
        ), note: localized("one row's values"), valueName: "values")
    var variableLimit: Int?

    @Option(
        Lesson06Flags.commitLatency, help: localized("Extra seconds each commit takes, to play a slow phone's storage"),
        valueName: "seconds")
    var commitLatency = 0.0

    func validate() throws {
        try Lesson06Flags.rows.check(rows)
        try Lesson06Flags.batchRows.check(batchRows)
        try Lesson06Flags.commitLatency.check(commitLatency)
        try Lesson06Flags.variableLimit.check(variableLimit)
    }

    var job: SaveJob {
        SaveJob(
            rows: rows, full: full, batchRows: batchRows, variableLimit: variableLimit, commitLatency: commitLatency)
    }

    func prepare() throws -> UpsertDemonstrations { try UpsertDemonstrations() }

    func banner(_ demonstrations: UpsertDemonstrations) -> String { demonstrations.banner(for: job) }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded:
            localized(
                "threaded: every strategy on writer-queue (own connection, WAL); main draws and reads the row count each frame"
            )
        case .async:
            localized(
                "async: every strategy in a writer actor (own connection, WAL), awaited by a main-actor task; main reads the row count each frame"
            )
        case .noThread: localized("no-thread: every strategy on the main thread")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup: UpsertDemonstrations, output: ScreenOutput) -> VariantRun<SaveDetails> {
        var settings = SaveRun.Settings(job: job, output: output)
        settings.cancelAfter = common.cancelAfter
        return SaveRun.perform(variant, settings: settings, folder: setup.folder)
    }

    func parameters(_ setup: UpsertDemonstrations) -> [(MetricName, Metric)] { setup.parameters(for: job) }

    func takeaway(_ runs: [VariantRun<SaveDetails>]) -> String { SaveRun.takeaway(runs) }
}
