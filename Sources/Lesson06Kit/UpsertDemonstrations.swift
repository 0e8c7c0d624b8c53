import Foundation
import WorkshopCore

/// What the variants share: a scratch folder for every database file of the run, and parts 1
/// to 3 of the lesson (the article's session, replace against upsert, the 500 limit), run
/// once in that folder before the variants. Their findings are the lesson's banner, and the
/// limits are parameters of the report.
public struct UpsertDemonstrations: LessonSetup {
    public let folder: ScratchFolder
    /// Parts 1 to 3 as a terminal shows them.
    public let text: String
    public let limits: FiveHundredLimit.Findings

    /// Makes the folder and runs the demonstrations in it (a failing one removes the folder).
    public init() throws {
        let folder: ScratchFolder
        do { folder = try ScratchFolder("lesson06") } catch {
            let place = FileManager.default.temporaryDirectory.path
            throw LessonFailure(
                localized(
                    "cannot make a folder for the database files in %@: %@", place, error.localizedDescription))
        }
        self.folder = folder
        func database(_ name: String) throws -> SQLiteDatabase { try SQLiteDatabase(path: folder.file(name)) }
        do {
            let session = try ArticleSession.replay(on: database("article.sqlite"))
            let hazards = try ReplaceHazards.Way.allCases.map { way in
                let file = "hazards-\(way == .replace ? "replace" : "upsert").sqlite"
                return ReplaceHazards.report(way, try ReplaceHazards.run(way, on: database(file)))
            }
            limits = try FiveHundredLimit.run(on: database("limits.sqlite"))
            let one = localized("== 1. The article's session, replayed on a real file (values bound, not typed in)")
            let two = localized(
                "== 2. The same change to row 100 made two ways, with replies (ON DELETE CASCADE), a delete trigger and a reader holding the row"
            )
            text = """
                \(one)

                \(ArticleSession.transcript(session))
                \(two)

                \(hazards.joined(separator: "\n"))

                \(localized("== 3. The 500 limit, then and now"))

                \(FiveHundredLimit.report(limits))
                """
        } catch {
            folder.tearDown()
            throw error
        }
    }

    public func tearDown() { folder.tearDown() }

    /// The report's parameters: the job, and the limits of the SQLite that ran it.
    public func parameters(for job: SaveJob) -> [(MetricName, Metric)] {
        [
            (.rows, .count(job.rows)), (.perRowCommitRows, .count(job.rows(for: .perRowCommit))),
            (.batchRows, .count(job.batchRows)), (.commitLatencySeconds, .seconds(job.commitLatencySeconds)),
            (.sqliteVersion, .text(limits.libraryVersion)),
            (.variableLimit, .count(job.variableLimit ?? limits.variableLimit)),
            (.compoundSelectLimit, .count(limits.compoundSelectLimit)),
        ]
    }

    /// Parts 1 to 3 as a terminal shows them, then what part 4 (the variants) will save.
    public func banner(for job: SaveJob) -> String {
        let perRow = job.perRowCommitBudgetSeconds.map {
            localized(" at most, for at most %@ s (--full: all)", $0.formattedSeconds)
        }
        let strategies = localized(
            """
            one row per commit: %1$d rows%2$@; one transaction: %3$d; multi-row batches: %4$d in transactions of %5$d; \
            update, then insert or ignore (before SQLite 3.24): %6$d in one transaction
            """, job.rows(for: .perRowCommit), perRow ?? "", job.rows, job.rows, job.batchRows, job.rows)
        return """
            \(localized("Lesson 06: SQLite upsert (SQLite %@).", SQLiteDatabase.libraryVersion))

            \(text)

            \(localized("== 4. Saving %d rows (every tenth exists already) four ways, per variant", job.rows))
            \(strategies)
            \(localized("database files in %@ (removed at the end)", folder.path))
            """
    }
}
