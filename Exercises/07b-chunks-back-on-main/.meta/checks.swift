import ExerciseChecks
import Foundation
import Lesson07Kit
import WorkshopCore

/// The checks of exercise 07b (Exercises/07b-chunks-back-on-main): a chunk's heights measured
/// off the main actor, shown on it, and a cancel that stops both. Every check reads what the
/// table's own sizing cells and the table recorded: the thread each row was measured on, what
/// was shown, and what happened after a cancel that the cells themselves set off (in the middle
/// of a chunk) or the table did (as it showed one). No check reads a clock.
@MainActor
enum Exercise07bChecks {
    /// Lesson 07's default table width in cells.
    static let cellWidth = 40.0
    /// 480 rows, 80 to a chunk: 6 chunks, a quarter of a second of layout on a quiet machine
    /// (lesson 07's sizing cell takes about half a millisecond a row).
    static let rows = 480
    nonisolated static let chunkSize = 80
    /// The cancelled runs: once the 2nd chunk (index 1) is shown, and while the 3rd chunk's 2nd
    /// row (index 161) is measured. The texts below name them from these numbers.
    nonisolated static let cancelAtShow = 1
    nonisolated static let cancelAtRow = 2 * chunkSize + 1
    /// The chunk and the row as the texts name them, counted from 1 (the picture's "rows 161-240").
    nonisolated static let shownChunk = cancelAtShow + 1
    nonisolated static let measuredRow = cancelAtRow + 1
    nonisolated static let measuredChunk = cancelAtRow / chunkSize + 1
    /// How long each of the three runs may take: together inside the 20 s a check program may run.
    nonisolated static let runSeconds = 5.0

    // The checks, in the order they report: each declared once, in both languages.
    static let measuresOffMain = Check(
        "no chunk is measured on the main thread", ja: "どのチャンクもメインスレッドでは測らない",
        wanted:
            "every row of heights(of:in:), awaited from the main actor, measured off the main thread",
        ja: "メインアクターから await した heights(of:in:) の行を、すべてメインスレッドの外で測る", hint: 1)
    static let everyChunkShown = Check(
        "every chunk is shown once, in order, with its exact heights",
        ja: "どのチャンクも順に 1 回ずつ、正確な高さで表示される",
        wanted: "show(_:for:) for the \(rows / chunkSize) chunks in order, each with its sizing cell's heights",
        ja: "\(rows / chunkSize) 個のチャンクについて順に show(_:for:) を呼び、どれもサイズ計算用セルの高さを渡す", hint: 3)
    static let stopsWhenCancelled = Check(
        "a cancelled run measures and shows nothing more", ja: "キャンセルされた実行は、それ以上測らず、表示もしない",
        wanted:
            "cancelled as chunk \(shownChunk) is shown, then (in a new run) while row \(measuredRow), in chunk \(measuredChunk), is measured: measureAll() returns, nothing shown after the cancel, no row of a later chunk measured",
        ja:
            "2 回キャンセルする（チャンク \(shownChunk) を表示した直後と、別の実行でチャンク \(measuredChunk) の行 \(measuredRow) を測っている最中）。どちらでも measureAll() が戻り、キャンセルのあとは何も表示せず、後のチャンクの行も測らない",
        hint: 4)
    static let all = [measuresOffMain, everyChunkShown, stopsWhenCancelled]

    /// Starts the learner's `measureAll()` in a task on the main actor, as the view controller
    /// does; `ended` says it returned. The task runs once the check turns the main loop.
    static func start(_ table: ChunkTable) -> (task: Task<Void, Never>, ended: MainActorFlag) {
        let heights = ChunkHeights(table: table)
        let ended = MainActorFlag()
        let task = Task { @MainActor in
            await heights.measureAll()
            ended.isSet = true
        }
        table.log.watch(task)
        return (task, ended)
    }

    /// Runs every check. Call on the main thread: it turns the main run loop.
    static func run() -> [CheckResult] {
        let texts = HeightsRun.texts(count: rows)
        let sizer = TextCellSizer(width: cellWidth)
        let exact = texts.map { (try? sizer.height(forText: $0)) ?? .nan }

        // Run 1: the whole table, with the Screen's freezes and lanes for the picture.
        let table = ChunkTable(texts: texts, chunkSize: chunkSize, cellWidth: cellWidth)
        let meter = StallMeter()
        CheckTimelineRecorder.start()
        meter.start()
        let (task, ended) = start(table)
        let finished = MainLoop.run(timeout: runSeconds) { ended.isSet }
        task.cancel()
        meter.stop()
        table.log.recordChunkSpans()
        CheckTimelineRecorder.finish(stalls: meter)

        // Runs 2 and 3: cancelled by the table as it shows a chunk, and by a cell mid-chunk.
        let cancelled = [
            cancelRun(ChunkTable(texts: texts, chunkSize: chunkSize, cellWidth: cellWidth, cancelAtShow: cancelAtShow)),
            cancelRun(ChunkTable(texts: texts, chunkSize: chunkSize, cellWidth: cellWidth, cancelAtRow: cancelAtRow)),
        ]
        return [
            threadCheck(table.log.measurements, worstFreeze: meter.maxStallSeconds),
            shownCheck(table, exact: exact, finished: finished),
            cancelCheck(cancelled),
        ]
    }

    nonisolated static func rowsText(_ count: Int) -> String {
        localized(count: count, "%d row", "%d rows", ja: "%d 行")
    }

    static func threadCheck(_ measured: [ChunkLog.Measurement], worstFreeze: Double) -> CheckResult {
        let onMain = measured.filter(\.onMain)
        let got: String
        if measured.isEmpty {
            got = localized("measureAll() measured no row", ja: "measureAll() が 1 行も測りませんでした")
        } else if onMain.isEmpty {
            got = localized(
                format: "all %@ off the main thread", ja: "%@すべてをメインスレッドの外で測りました", rowsText(measured.count))
        } else {
            got = localized(
                format:
                    "%1$d of %2$@ measured on the main thread: the table froze while they were (worst freeze %3$.2f s)",
                ja: "%2$@のうち %1$d 行をメインスレッドで測り、その間テーブルがフリーズしました（最大フリーズ %3$.2f 秒）",
                onMain.count, rowsText(measured.count), worstFreeze)
        }
        return measuresOffMain.result(!measured.isEmpty && onMain.isEmpty, got: got)
    }

    static func shownCheck(_ table: ChunkTable, exact: [Double], finished: Bool) -> CheckResult {
        let shown = table.shown
        let wrong = shown.first { $0.heights != Array(exact[$0.rows]) }
        let got: String
        if let wrong {
            got = localized(
                format: "rows %1$d-%2$d were shown with other heights than their sizing cell's",
                ja: "行 %1$d-%2$d を、サイズ計算用セルとは違う高さで表示しました", wrong.rows.lowerBound + 1, wrong.rows.upperBound)
        } else if shown.map(\.rows) != table.chunks {
            got =
                localized(
                    format: "%1$d of %2$d chunks shown, in the order %3$@", ja: "%2$d 個のうち %1$d 個のチャンクを、%3$@ の順で表示しました",
                    shown.count, table.chunks.count,
                    shown.map { "\($0.rows.lowerBound + 1)-\($0.rows.upperBound)" }.joined(separator: ", "))
                + (finished
                    ? ""
                    : localized(
                        format: "; measureAll() had not returned after %d s", ja: "。%d 秒たっても measureAll() が戻りませんでした",
                        Int(runSeconds)))
        } else {
            got = localized(
                format: "all %d chunks shown in order, with their exact heights", ja: "%d 個のチャンクすべてを順に、正確な高さで表示しました",
                shown.count)
        }
        return everyChunkShown.result(wrong == nil && shown.map(\.rows) == table.chunks, got: got)
    }

    /// What one cancelled run showed.
    struct CancelOutcome {
        var atShow: Bool
        var cancelled: Bool
        var stopped: Bool
        /// Rows measured after the cancel in a chunk that had not begun before it.
        var lateRows: Int
        var lateShows: Int

        var passed: Bool { cancelled && stopped && lateRows == 0 && lateShows == 0 }

        var text: String {
            let at =
                atShow
                ? localized(format: "cancelled as chunk %d was shown: ", ja: "チャンク %d の表示でキャンセル: ", shownChunk)
                : localized(
                    format: "cancelled while row %d was measured: ", ja: "行 %d の計測中にキャンセル: ", measuredRow)
            guard cancelled else {
                return at + localized("the run ended before the cancel point", ja: "キャンセルする前に実行が終わりました")
            }
            return at
                + localized(
                    format: "after it %1$@ of later chunks measured, %2$@ shown; %3$@",
                    ja: "そのあと、後のチャンクで %1$@を測り、チャンクを %2$@表示しました。%3$@", rowsText(lateRows),
                    localized(count: lateShows, "%d chunk", "%d chunks", ja: "%d 個"),
                    stopped
                        ? localized("measureAll() returned", ja: "measureAll() は戻りました")
                        : localized(
                            format: "measureAll() had not returned after %d s", ja: "%d 秒たっても measureAll() が戻りませんでした",
                            Int(runSeconds)))
        }
    }

    /// One run of `table`, which cancels the task itself (at a show, or from a cell): what
    /// happened after the cancel. A row of a chunk begun before it may still be measured (a
    /// chunk is measured whole); a row of any other chunk, or a show, may not.
    static func cancelRun(_ table: ChunkTable) -> CancelOutcome {
        let log = table.log
        let (task, ended) = start(table)
        let stopped = MainLoop.run(timeout: runSeconds) { ended.isSet }
        task.cancel()
        // A moment more for work measureAll() started and did not wait for: it must do nothing either.
        MainLoop.run(timeout: 0.2) { false }
        let measured = log.measurements
        let begun = Set(measured.filter { !$0.afterCancel }.map { $0.row / chunkSize })
        return CancelOutcome(
            atShow: table.cancelAtShow != nil, cancelled: log.isCancelled, stopped: stopped,
            lateRows: measured.filter { $0.afterCancel && !begun.contains($0.row / chunkSize) }.count,
            lateShows: table.shown.filter(\.afterCancel).count)
    }

    static func cancelCheck(_ outcomes: [CancelOutcome]) -> CheckResult {
        let failed = outcomes.first { !$0.passed }
        return stopsWhenCancelled.result(
            failed == nil, got: failed?.text ?? outcomes.map(\.text).joined(separator: "; "))
    }
}
