import ExerciseChecks
import Foundation
import WorkshopCore

/// The checks of exercise 06a (Exercises/06a-writer-actor): a writer actor that owns its SQLite
/// connection, binds its values and saves each batch in one transaction, while a reader on a
/// connection of its own counts the rows.
public enum Exercise06aChecks {
    public typealias Flag = (id: Int, message: String)
    /// Saves one batch with the learner's writer.
    public typealias SaveBatch = @Sendable ([Flag]) async throws -> Void
    /// Opens the learner's writer on the database file at a path.
    public typealias MakeWriter = @Sendable (String) throws -> SaveBatch

    public static let tasks = 8
    public static let batchesPerTask = 4
    public static let batchSize = 25
    static var allRows: Int { tasks * batchesPerTask * batchSize }
    /// The message of the first check: quotes, and SQL of its own if pasted into a statement.
    static let quotedMessage = "it's O'Brien's flag'); drop table flags; --"

    // The checks, in the order they report: each declared once, in both languages.
    static let quotes = Check(
        "a message is stored as typed, quotes and all", ja: "メッセージが引用符も含めて入力どおりに保存される",
        wanted: "the message \(quotedMessage)", ja: "メッセージ「\(quotedMessage)」", hint: 1)
    static let everyRow = Check(
        "saves from \(tasks) tasks at once: every row is there", ja: "\(tasks) 個のタスクから同時に保存しても、すべての行がそろう",
        wanted: "\(allRows) rows, ids 1 to \(allRows), each with its message",
        ja: "\(allRows) 行（id 1 から \(allRows)）が、それぞれのメッセージ付きでそろう", hint: 2)
    static let wholeBatches = Check(
        "a reader never sees half a batch", ja: "読み手がバッチの途中の状態を見ることがない",
        wanted: "every count a reader sees is a whole number of batches (a multiple of \(batchSize))",
        ja: "読み手が見る行数がいつもバッチの整数倍（\(batchSize) の倍数）", hint: 3)
    static let duplicateFails = Check(
        "a batch with a duplicate id is an error and saves none of its rows",
        ja: "id が重複したバッチはエラーになり、その行は 1 行も保存されない",
        wanted: "the save throws (a constraint error) and the table keeps its 3 rows, ids 1 2 3",
        ja: "保存でエラー（制約エラー）が投げられ、テーブルは元の 3 行（id 1 2 3）のまま", hint: 4)
    static let keepsWorking = Check(
        "the writer keeps working after a failed batch", ja: "失敗したバッチのあとも書き込み担当が動き続ける",
        wanted: "the next batch (ids 10 11) is saved after it", ja: "そのあとの次のバッチ（id 10 11）が保存される", hint: 4)
    public static let all = [quotes, everyRow, wholeBatches, duplicateFails, keepsWorking]

    /// A fresh database file with the flags table, in WAL mode (so a reader's connection sees the
    /// last committed state while the writer writes). Returns its path.
    static func database() throws -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exercise06a-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("flags.sqlite").path
        let setup = try SQLiteDatabase(path: path)
        try setup.execute(
            """
            PRAGMA journal_mode = WAL;
            create table flags (id integer primary key, message text not null);
            """)
        return (path, folder)
    }

    static func count(_ database: SQLiteDatabase) throws -> Int {
        Int(try database.query("select count(*) from flags").first?.first?.int ?? -1)
    }

    static func failed(_ check: Check, _ error: any Error) -> CheckResult {
        let got =
            (error as? SQLiteError).map {
                localized(
                    format: "it threw: %1$@ (SQLite code %2$d)", ja: "エラーが投げられました:「%1$@」（SQLite のコード %2$d）", $0.message,
                    Int($0.code))
            } ?? localized(format: "it threw: %@", ja: "エラーが投げられました:「%@」", "\(error)")
        return check.result(false, got: got)
    }

    /// Runs every check against writers made by `makeWriter`.
    public static func run(_ makeWriter: @escaping MakeWriter) async -> [CheckResult] {
        [await storesQuotes(makeWriter)] + (await concurrentSaves(makeWriter)) + (await failedBatch(makeWriter))
    }

    static func storesQuotes(_ makeWriter: MakeWriter) async -> CheckResult {
        let message = quotedMessage
        do {
            let (path, folder) = try database()
            defer { try? FileManager.default.removeItem(at: folder) }
            let save = try makeWriter(path)
            try await save([(id: 1, message: message)])
            let stored = try SQLiteDatabase(path: path).query("select message from flags where id = ?", [1])
            let got = stored.first?.first?.string
            return quotes.result(
                got == message,
                got: got.map { localized(format: "the message %@", ja: "メッセージ「%@」", $0) }
                    ?? localized("no row", ja: "行がありません"))
        } catch {
            return failed(quotes, error)
        }
    }

    /// `tasks` tasks save `batchesPerTask` batches each at once, while a reader counts the rows
    /// on its own connection as fast as it can.
    static func concurrentSaves(_ makeWriter: @escaping MakeWriter) async -> [CheckResult] {
        do {
            let (path, folder) = try database()
            defer { try? FileManager.default.removeItem(at: folder) }
            let save = try makeWriter(path)
            // The reader: its own connection, counting until it is cancelled, and once more then.
            // The writers start only after its first count, so it reads before, during and
            // after the saves however the machine schedules them.
            let reading = AsyncGate()
            let reader = Task.detached { () throws -> [Int] in
                let database = try SQLiteDatabase(path: path)
                var seen: [Int] = []
                while !Task.isCancelled {
                    seen.append(try count(database))
                    reading.open()
                    await Task.yield()
                }
                seen.append(try count(database))
                return seen
            }
            _ = try? await reading.wait(timeout: 10)
            let errors = await withTaskGroup(of: String?.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        do {
                            for batch in 0..<batchesPerTask {
                                let first = (task * batchesPerTask + batch) * batchSize + 1
                                try await save((first..<first + batchSize).map { (id: $0, message: "flag \($0)") })
                            }
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                var errors: [String] = []
                for await error in group {
                    if let error { errors.append(error) }
                }
                return errors
            }
            reader.cancel()
            let seen = try await reader.value
            let check = try SQLiteDatabase(path: path)
            let rows = try check.query("select id, message from flags order by id")
            let right =
                rows.count == allRows
                && rows.enumerated().allSatisfy { $1 == [.integer(Int64($0 + 1)), .text("flag \($0 + 1)")] }
            let torn = seen.filter { $0 % batchSize != 0 }
            return [
                everyRow.result(
                    errors.isEmpty && right,
                    got: errors.first.map { localized(format: "a save threw: %@", ja: "保存でエラーが投げられました:「%@」", $0) }
                        ?? (right
                            ? localized(format: "all %d rows", ja: "%d 行すべてそろっています", allRows)
                            : localized(
                                format: "%@, or not the ones saved", ja: "%@、または保存したものと違う行",
                                localized(count: rows.count, "%d row", "%d rows", ja: "%d 行")))),
                wholeBatches.result(
                    torn.isEmpty && seen.count > 1,
                    got: torn.isEmpty
                        ? localized(
                            format: "%@, every one whole batches", ja: "%@のすべてで、バッチ単位の行数でした",
                            localized(count: seen.count, "%d read", "%d reads", ja: "%d 回の読み取り"))
                        : localized(
                            format: "%1$d of %2$@ saw half a batch, e.g. %3$@",
                            ja: "%2$@のうち %1$d 回でバッチの途中の状態が見えました（例: %3$@）", torn.count,
                            localized(count: seen.count, "%d read", "%d reads", ja: "%d 回の読み取り"),
                            Set(torn).sorted().prefix(3).map { localized(count: $0, "%d row", "%d rows", ja: "%d 行") }
                                .joined(
                                    separator: localized(", ", ja: "、")))),
            ]
        } catch {
            return [failed(everyRow, error), failed(wholeBatches, error)]
        }
    }

    /// One good batch, then a batch whose third row repeats an id that is there: the second
    /// save must throw and keep none of its rows, and the writer must then save the next batch.
    static func failedBatch(_ makeWriter: MakeWriter) async -> [CheckResult] {
        do {
            let (path, folder) = try database()
            defer { try? FileManager.default.removeItem(at: folder) }
            let save = try makeWriter(path)
            let check = try SQLiteDatabase(path: path)
            func ids() throws -> String {
                try check.query("select id from flags order by id").map { $0.first?.description ?? "" }
                    .joined(separator: " ")
            }
            try await save([(1, "one"), (2, "two"), (3, "three")])
            var threw: (any Error)?
            do {
                try await save([(4, "four"), (5, "five"), (2, "two again"), (6, "six")])
            } catch {
                threw = error
            }
            let afterFailure = try ids()
            var nextError: (any Error)?
            do {
                try await save([(10, "ten"), (11, "eleven")])
            } catch {
                nextError = error
            }
            let afterNext = try ids()
            return [
                duplicateFails.result(
                    threw != nil && afterFailure == "1 2 3",
                    got: threw == nil
                        ? localized(format: "no error, and ids %@", ja: "エラーなし、id は %@", afterFailure)
                        : localized(format: "an error, and ids %@", ja: "エラーあり、id は %@", afterFailure)),
                keepsWorking.result(
                    nextError == nil && afterNext == afterFailure + " 10 11",
                    got: nextError.map {
                        localized(
                            format: "it threw: %@", ja: "エラーが投げられました:「%@」", ($0 as? SQLiteError)?.message ?? "\($0)")
                    }
                        ?? localized(format: "ids %@", ja: "id は %@", afterNext)),
            ]
        } catch {
            return [failed(duplicateFails, error), failed(keepsWorking, error)]
        }
    }
}
