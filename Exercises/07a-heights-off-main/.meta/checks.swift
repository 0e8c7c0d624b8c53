import ExerciseChecks
import Foundation
import Lesson07Kit
import WorkshopCore

/// The checks of exercise 07a (Exercises/07a-heights-off-main): row heights that answer at
/// once with an estimate, are measured off the main thread (the rows on screen first), come
/// back to the main actor, and stop with a cancel. Every check reads what the table's own
/// sizing cells and the table itself recorded: where each row was measured, in what order,
/// what the learner's code answered when the table asked, what happened after the cancel.
public enum Exercise07aChecks {
    /// The learner's object, as the check drives it: its `height(forRow:)` and its `measureRows()`.
    public struct Provider {
        let height: @MainActor (Int) -> Double
        let measureRows: @MainActor () async -> Void

        public init(height: @escaping @MainActor (Int) -> Double, measureRows: @escaping @MainActor () async -> Void) {
            self.height = height
            self.measureRows = measureRows
        }
    }

    public typealias MakeProvider = @MainActor (HeightsTable) -> Provider

    static let estimate = 44.0
    /// Lesson 07's default table width in cells.
    static let cellWidth = 40.0
    /// The first run: 48 rows, scrolled so that rows 18..<24 are on screen.
    static let rows = 48
    static let visible = 18..<24
    /// The cancelled runs: 120 rows, the top 6 on screen; the check cancels while the 11th,
    /// then (in a new run) the 14th measurement is under way: with the visible rows first and
    /// the others 8 at a time, one in the middle of a batch and one at its end.
    static let cancelRows = 120
    static let cancelVisible = 0..<6
    static let holdPoints = [10, 13]
    /// How long each wait may take: together inside the 20 s a check program may run.
    static let runSeconds = 6.0
    static let reachSeconds = 3.0
    static let stopSeconds = 2.0
    /// Row 0's exact height in the first run, as lesson 07's sizing cell lays it out: what the
    /// exact-height check names (the layout is the same on every machine).
    static let firstRowHeight =
        (try? TextCellSizer(width: cellWidth).height(forText: HeightsRun.texts(count: rows)[0])) ?? .nan

    // The checks, in the order they report: each declared once, in both languages.
    static let answersAtOnce = Check(
        "height(forRow:) answers at once with the estimate", ja: "height(forRow:) は見積もりの高さをすぐに返す",
        wanted:
            "asked for all \(rows) rows before any was measured: \(pt(estimate)) each, and no row measured inside height(forRow:)",
        ja: "どの行もまだ測っていないうちに \(rows) 行すべてを聞くと、どれも \(pt(estimate)) で、height(forRow:) の中では 1 行も測らない",
        hint: 1)
    static let measuresOffMain = Check(
        "no row is measured on the main thread", ja: "メインスレッドではどの行も測らない",
        wanted: "every measurement of measureRows() off the main thread (a task group, an actor or a queue)",
        ja: "measureRows() の計測はすべてメインスレッドの外（タスクグループ、アクター、キューのどれか）", hint: 2)
    static let visibleRowsFirst = Check(
        "the visible rows are measured first", ja: "画面に出ている行を先に測る",
        wanted: "rows \(rangeText(visible)) (on screen) measured before any other row",
        ja: "画面に出ている行 \(rangeText(visible)) を、ほかのどの行よりも先に測る", hint: 3)
    static let exactHeights = Check(
        "every row gets its exact height, reloaded on main", ja: "どの行も正確な高さになり、メインスレッドでリロードされる",
        wanted:
            "reloadRows on the main thread for every row, which then answers the sizing cell's height (row 0: \(pt(firstRowHeight)), not the estimate \(pt(estimate)))",
        ja:
            "すべての行についてメインスレッドで reloadRows を呼び、その行はサイズ計算用セルの高さを答える（行 0 なら見積もりの \(pt(estimate)) ではなく \(pt(firstRowHeight))）",
        hint: 4)
    static let stopsWhenCancelled = Check(
        "a cancelled run measures and shows nothing more", ja: "キャンセルされた実行は、それ以上測らず、表示もしない",
        wanted:
            "cancelled while the \(englishOrdinal(holdPoints[0] + 1)) (then, in a new run, the \(englishOrdinal(holdPoints[1] + 1))) row is being measured: measureRows() returns, no reloadRows after the cancel, and no more rows measured (at most one per task measuring at that moment)",
        ja:
            "\(japaneseOrdinal(holdPoints[0] + 1))（新しい実行では \(japaneseOrdinal(holdPoints[1] + 1))）の行を測っている最中にキャンセルすると、measureRows() は戻り、キャンセルのあとには reloadRows を呼ばず、新しい行も測らない（その時点で測っていたタスクごとに 1 行までは許す）",
        hint: 5)
    public static let all = [answersAtOnce, measuresOffMain, visibleRowsFirst, exactHeights, stopsWhenCancelled]

    /// Hands the learner's `height(forRow:)` to `table` and starts `measureRows()` in a task on
    /// the main actor. The task runs once the check turns the main loop; `ended` says it returned.
    @MainActor
    static func start(_ provider: Provider, on table: HeightsTable) -> (task: Task<Void, Never>, ended: MainActorFlag) {
        table.heightOfRow = provider.height
        let ended = MainActorFlag()
        let task = Task { @MainActor in
            await provider.measureRows()
            ended.isSet = true
        }
        return (task, ended)
    }

    /// Runs every check against objects made by `make`. Call on the main thread: it turns the main run loop.
    @MainActor
    public static func run(_ make: MakeProvider) -> [CheckResult] {
        let texts = HeightsRun.texts(count: rows)
        let sizer = TextCellSizer(width: cellWidth)
        let exact = texts.map { (try? sizer.height(forText: $0)) ?? .nan }

        // Run 1: the table asks every row's height at once, before `measureRows` could run (the
        // task waits for the main thread, which is the check's until it turns the loop).
        let table = HeightsTable(texts: texts, visibleRows: visible, estimatedHeight: estimate, cellWidth: cellWidth)
        let (task, ended) = start(make(table), on: table)
        let firstAnswers = texts.indices.map { table.answer($0) }
        let finished = MainLoop.run(timeout: runSeconds) { ended.isSet }
        task.cancel()
        let finalAnswers = texts.indices.map { table.answer($0) }
        let measured = table.log.measurements

        // Runs 2 and 3: cancelled while a row is being measured.
        let cancelled = cancelCheck(make)

        return [
            estimateCheck(firstAnswers: firstAnswers, measured: measured),
            threadCheck(measured),
            orderCheck(measured),
            exactCheck(exact: exact, table: table, finished: finished, finalAnswers: finalAnswers),
            cancelled,
        ]
    }

    static func rowsText(_ rows: some Collection<Int>) -> String {
        rows.count <= 8
            ? rows.map(String.init).joined(separator: ", ")
            : rows.prefix(8).map(String.init).joined(separator: ", ") + ", ..."
    }

    static func rangeText(_ range: Range<Int>) -> String { "\(range.lowerBound)..<\(range.upperBound)" }

    static func pt(_ height: Double) -> String { height.isNaN ? "nan pt" : "\(Int(height)) pt" }

    static func estimateCheck(firstAnswers: [Double], measured: [MeasureLog.Measurement]) -> CheckResult {
        let inside = measured.filter(\.insideAnswer).count
        let notEstimate = firstAnswers.indices.filter { firstAnswers[$0] != estimate }
        return answersAtOnce.result(
            inside == 0 && notEstimate.isEmpty,
            got: notEstimate.isEmpty && inside == 0
                ? localized(format: "%@ each, nothing measured inside it", ja: "どれも %@ で、その中では何も測っていません", pt(estimate))
                : localized(
                    format: "%@ measured inside height(forRow:) on the main thread",
                    ja: "メインスレッドの height(forRow:) の中で %@ を測りました",
                    localized(count: inside, "%d row", "%d rows", ja: "%d 行"))
                    + (notEstimate.isEmpty
                        ? ""
                        : localized(
                            format: "; row %1$d answered %2$@ before it was measured", ja: "。行 %1$d は測る前に %2$@ と答えました",
                            notEstimate[0],
                            pt(firstAnswers[notEstimate[0]]))))
    }

    static func threadCheck(_ measured: [MeasureLog.Measurement]) -> CheckResult {
        let byRun = measured.filter { !$0.insideAnswer }
        let onMain = byRun.filter(\.onMain)
        return measuresOffMain.result(
            !byRun.isEmpty && onMain.isEmpty,
            got: byRun.isEmpty
                ? localized("measureRows() measured no row", ja: "measureRows() が 1 行も測りませんでした")
                : onMain.isEmpty
                    ? localized(
                        format: "%1$d of %2$@ on the main thread", ja: "%2$@のうち %1$d 回がメインスレッドでした", onMain.count,
                        localized(count: byRun.count, "%d measurement", "%d measurements", ja: "%d 回の計測"))
                    : localized(
                        format: "%1$d of %2$@ on the main thread: the table froze until the last of them",
                        ja: "%2$@のうち %1$d 回がメインスレッドでした。最後の計測が終わるまでテーブルがフリーズしました",
                        onMain.count, localized(count: byRun.count, "%d measurement", "%d measurements", ja: "%d 回の計測"))
        )
    }

    static func orderCheck(_ measured: [MeasureLog.Measurement]) -> CheckResult {
        let order = measured.filter { !$0.insideAnswer }.map(\.row)
        let firstOther = order.firstIndex { !visible.contains($0) } ?? order.count
        let visibleFirst = Set(order[..<firstOther])
        let lateVisible = visible.filter { !visibleFirst.contains($0) }
        let seen = order.firstIndex { visible.contains($0) }
        return visibleRowsFirst.result(
            lateVisible.isEmpty,
            got: lateVisible.isEmpty
                ? localized(format: "rows %@ first", ja: "行 %@ が先でした", rangeText(visible))
                : order.isEmpty
                    ? localized("measureRows() measured no row", ja: "measureRows() が 1 行も測りませんでした")
                    : localized(format: "measured first: rows %@", ja: "先に測った行: %@", rowsText(order))
                        + (seen.map {
                            localized(
                                format: "; the first row on screen came %@", ja: "。画面に出ている行を初めて測ったのは %@ の計測でした",
                                ordinal($0 + 1))
                        }
                            ?? localized("; no row on screen measured", ja: "。画面に出ている行は 1 行も測っていません")))
    }

    /// "1st", "2nd", "11th"; in Japanese "1 番目".
    static func ordinal(_ number: Int) -> String { localized(englishOrdinal(number), ja: japaneseOrdinal(number)) }

    /// "1st", "2nd", "11th", whatever the checks' language (for the declarations).
    static func englishOrdinal(_ number: Int) -> String {
        if (11...13).contains(number % 100) { return "\(number)th" }
        switch number % 10 {
        case 1: return "\(number)st"
        case 2: return "\(number)nd"
        case 3: return "\(number)rd"
        default: return "\(number)th"
        }
    }

    /// "1 番目", whatever the checks' language (for the declarations).
    static func japaneseOrdinal(_ number: Int) -> String { "\(number) 番目" }

    @MainActor
    static func exactCheck(exact: [Double], table: HeightsTable, finished: Bool, finalAnswers: [Double]) -> CheckResult
    {
        let reloads = table.reloads
        let offMain = reloads.filter { !$0.onMain }.count
        // A reload may answer the estimate (a row redrawn before its turn), never another height.
        let wrong = reloads.first { $0.height != exact[$0.row] && $0.height != estimate }
        let shown = Set(reloads.filter { $0.height == exact[$0.row] }.map(\.row))
        let missing = exact.indices.filter { !shown.contains($0) }
        let finalWrong = exact.indices.filter { finalAnswers[$0] != exact[$0] }
        let got: String
        if let wrong {
            got = localized(
                format: "row %1$d was reloaded with %2$@; its cell measures %3$@",
                ja: "行 %1$d が %2$@ でリロードされました。セルで測ると %3$@ です", wrong.row, pt(wrong.height),
                pt(exact[wrong.row]))
        } else if offMain > 0 {
            got = localized(
                format: "%@ off the main thread", ja: "メインスレッドの外で %@",
                localized(count: offMain, "%d reload", "%d reloads", ja: "%d 回のリロード"))
        } else if !missing.isEmpty {
            got =
                localized(
                    format: "%1$@ never reloaded with the exact height (rows %2$@)",
                    ja: "正確な高さでリロードされなかった行が %1$@（行 %2$@）",
                    localized(count: missing.count, "%d row", "%d rows", ja: "%d 行"), rowsText(missing))
                + (finished
                    ? ""
                    : localized(
                        format: "; measureRows() had not returned after %d s", ja: "。%d 秒たっても measureRows() が戻りませんでした",
                        Int(runSeconds)))
        } else if let row = finalWrong.first {
            got = localized(
                format: "at the end row %1$d answers %2$@, its cell %3$@", ja: "最後に行 %1$d が答えたのは %2$@、セルでは %3$@", row,
                pt(finalAnswers[row]), pt(exact[row]))
        } else {
            got = localized(
                format: "all %d rows reloaded on main with their exact heights", ja: "%d 行すべてがメインスレッドで正確な高さにリロードされました",
                exact.count)
        }
        return exactHeights.result(wrong == nil && offMain == 0 && missing.isEmpty && finalWrong.isEmpty, got: got)
    }

    /// What one cancelled run showed.
    struct CancelOutcome {
        var holdAt: Int
        /// The held measurement came (off main) before `measureRows()` returned: the cancel came mid-way.
        var reached: Bool
        var returnedEarly: Bool
        var measuredBefore: Int
        var stopped: Bool
        var lateMeasurements: Int
        /// Each task measuring at the cancel may have passed its last look at the cancel just before it.
        var allowed: Int
        var lateReloads: Int

        var passed: Bool { reached && stopped && lateReloads == 0 && lateMeasurements <= allowed }

        var text: String {
            let at =
                reached
                ? localized(format: "cancelled at the %@ measurement: ", ja: "%@の計測でキャンセル: ", ordinal(holdAt + 1))
                : localized(
                    format: "to be cancelled at the %@ measurement: ", ja: "%@の計測でキャンセルする予定: ", ordinal(holdAt + 1))
            guard reached else {
                return at
                    + (returnedEarly && measuredBefore == 0
                        ? localized(
                            "measureRows() returned without measuring a row", ja: "measureRows() が 1 行も測らずに戻りました")
                        : returnedEarly
                            ? localized(
                                format:
                                    "measureRows() had measured %@ and returned before the main thread could run, so the cancel came when all was done: measure off the main thread",
                                ja: "measureRows() が %@ を測り、メインスレッドが動ける前に戻ったので、キャンセルは全部終わってから届きました。メインスレッドの外で測ってください",
                                localized(count: measuredBefore, "%d row", "%d rows", ja: "%d 行"))
                            : localized(
                                format:
                                    "the %1$@ measurement off the main thread did not come within %2$d s (%3$@ measured)",
                                ja: "メインスレッドの外での %1$@ の計測が %2$d 秒以内に来ませんでした（測ったのは %3$@）",
                                ordinal(holdAt + 1), Int(reachSeconds),
                                localized(count: measuredBefore, "%d row", "%d rows", ja: "%d 行")))
            }
            return at
                + localized(
                    format: "%1$@ measured after it, %2$@ reloaded; %3$@", ja: "そのあとに測ったのが %1$@、リロードしたのが %2$@。%3$@",
                    localized(count: lateMeasurements, "%d row", "%d rows", ja: "%d 行"),
                    localized(count: lateReloads, "%d row", "%d rows", ja: "%d 行"),
                    stopped
                        ? localized("measureRows() returned", ja: "measureRows() は戻りました")
                        : localized(
                            format: "measureRows() had not returned after %d s", ja: "%d 秒たっても measureRows() が戻りませんでした",
                            Int(stopSeconds)))
        }
    }

    /// Run 2: starts a table of 120 rows, cancels the task while its `holdAt`-th measurement
    /// (from 0) is held off main, lets that measurement finish, and records what happens after.
    @MainActor
    static func cancelRun(_ make: MakeProvider, holdAt: Int) -> CancelOutcome {
        let table = HeightsTable(
            texts: HeightsRun.texts(count: cancelRows), visibleRows: cancelVisible, estimatedHeight: estimate,
            cellWidth: cellWidth, holdAt: holdAt)
        let log = table.log
        let (task, ended) = start(make(table), on: table)
        MainLoop.run(timeout: reachSeconds) { log.isHolding || ended.isSet }
        let reached = log.isHolding && !ended.isSet
        let measuredBefore = log.measurements.count
        // On main, between two main-queue jobs: no reload can be half done.
        table.cancelled = true
        log.cancel()
        task.cancel()
        log.releaseHeld()
        let stopped = MainLoop.run(timeout: stopSeconds) { ended.isSet }
        // A moment more for work measureRows() started and did not wait for: it must do nothing either.
        MainLoop.run(timeout: 0.2) { false }
        return CancelOutcome(
            holdAt: holdAt, reached: reached, returnedEarly: ended.isSet && !reached, measuredBefore: measuredBefore,
            stopped: stopped, lateMeasurements: log.measurements.filter(\.afterCancel).count,
            allowed: max(0, log.peakInFlight - 1), lateReloads: table.reloads.filter(\.afterCancel).count)
    }

    /// Two cancelled runs: in the middle of a batch of rows (what the measuring does with a
    /// cancel) and at its end (what the main actor does with heights that come after one).
    @MainActor
    static func cancelCheck(_ make: MakeProvider) -> CheckResult {
        let outcomes = holdPoints.map { cancelRun(make, holdAt: $0) }
        let failed = outcomes.first { !$0.passed }
        return stopsWhenCancelled.result(
            failed == nil, got: failed?.text ?? outcomes.map(\.text).joined(separator: "; "))
    }
}
