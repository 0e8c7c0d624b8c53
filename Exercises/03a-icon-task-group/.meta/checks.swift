import ExerciseChecks
import Foundation
import WorkshopCore

/// The checks of exercise 03a (Exercises/03a-icon-task-group): icons fetched in a task group
/// of a given width, each set on the main actor on its own row.
public enum Exercise03aChecks {
    public typealias LoadIcons = @MainActor @Sendable ([String], Int, IconSource, IconRows) async -> Void

    public static let names = [
        "aiko", "ben", "chiyo", "daichi", "emi", IconSource.brokenName, "fumio", "gin", "hana", "isamu", "jun", "kei",
    ]
    /// Each fetch takes 0.5 to 2 times this (after the first `width` are all in flight, see
    /// `IconSource`), so the answers come back out of order.
    public static let latency = 0.05
    /// Two widths, so a loader that ignores `width` cannot pass by luck.
    public static let widths = [2, 4]
    /// How long one load may take: both stay inside the 20 s a check program may run.
    static let loadSeconds = 8.0
    /// The widths, as a sentence says them in each language.
    static let widthsText = widths.map(String.init).joined(separator: ", then ")
    static let widthsTextJapanese = widths.map(String.init).joined(separator: "、次に ")

    // The checks, in the order they report: each declared once, in both languages.
    static let fetchesWidthAtOnce = Check(
        "fetches `width` icons at once", ja: "`width` 個のアイコンを同時に取得する",
        wanted: "with a width of \(widthsText): \(widthsText) fetches in flight at the busiest moment",
        ja: "並列度 \(widthsTextJapanese) で、いちばん混み合った瞬間に \(widthsTextJapanese) 個の取得が実行中になる", hint: 1)
    static let neverMoreThanWidth = Check(
        "never more than `width` fetches at once", ja: "同時に実行する取得が `width` 個を超えない",
        wanted: "with a width of \(widthsText): never more than \(widthsText) fetches in flight",
        ja: "並列度 \(widthsTextJapanese) で、実行中の取得が \(widthsTextJapanese) 個を超えない", hint: 2)
    static let everyIconOnItsRow = Check(
        "every icon on its own row", ja: "どのアイコンも自分の行に付く",
        wanted: "each of the \(names.count) rows shows its own name's icon when loadIcons returns",
        ja: "loadIcons が戻ったとき、\(names.count) 行のどれにもその行の名前のアイコンが表示されている", hint: 3)
    static let setOnMainThread = Check(
        "icons set on the main thread", ja: "アイコンをメインスレッドでセットする",
        wanted: "every setIcon call on the main actor, on the main thread",
        ja: "setIcon の呼び出しがすべてメインアクター上、メインスレッドで行われる", hint: 3)
    static let sameRowsAsSerial = Check(
        "the same rows as the serial loader", ja: "順番に読み込むローダと同じ行になる",
        wanted: "the rows the loader as shipped shows: the broken icon's row (6) empty, the others set",
        ja: "配布時のローダと同じ行: 壊れたアイコンの行（6）は空、ほかはセット済み", hint: 4)
    public static let all = [
        fetchesWidthAtOnce, neverMoreThanWidth, everyIconOnItsRow, setOnMainThread, sameRowsAsSerial,
    ]

    struct Run {
        var finished = false
        var icons: [[UInt8]?] = []
        var onMain: [Bool] = []
        var peak = 0
    }

    /// Runs `loadIcons` on the main actor in a task and turns the main loop until it ends.
    @MainActor
    static func load(_ loadIcons: @escaping LoadIcons, width: Int) -> Run {
        let source = IconSource(latency: latency, holdUntil: min(width, names.count))
        let rows = IconRows(count: names.count)
        let ended = MainActorFlag()
        let task = Task { @MainActor in
            await loadIcons(names, width, source, rows)
            ended.isSet = true
        }
        let finished = MainLoop.run(timeout: loadSeconds) { ended.isSet }
        task.cancel()
        return Run(finished: finished, icons: rows.icons, onMain: rows.setOnMainThread, peak: source.peakInFlight)
    }

    /// What the serial loader (the file as shipped) shows: each row its own icon, the broken one empty.
    static var serialIcons: [[UInt8]?] {
        names.map { $0 == IconSource.brokenName ? nil : Array("icon of \($0)".utf8) }
    }

    /// Runs every check against `loadIcons`. Call on the main thread: it turns the main run loop.
    @MainActor
    public static func run(_ loadIcons: @escaping LoadIcons) -> [CheckResult] {
        let runs = widths.map { load(loadIcons, width: $0) }
        let peaks = runs.map(\.peak)
        let peaksText = peaks.map(String.init).joined(separator: localized(", then ", ja: "、次に "))
        let allFinished = runs.allSatisfy(\.finished)
        let wrongRows = runs.map { run in
            run.icons.indices.filter { names[$0] != IconSource.brokenName && run.icons[$0] != serialIcons[$0] }
        }
        let offMain = runs.flatMap(\.onMain).filter { !$0 }.count
        let setCalls = runs.flatMap(\.onMain).count
        return [
            fetchesWidthAtOnce.result(
                zip(peaks, widths).allSatisfy { $0 >= $1 },
                got: localized(format: "at most %@", ja: "最大 %@ 個", peaksText)),
            neverMoreThanWidth.result(
                zip(peaks, widths).allSatisfy { $0 <= $1 },
                got: localized(format: "at most %@", ja: "最大 %@ 個", peaksText)),
            everyIconOnItsRow.result(
                allFinished && wrongRows.allSatisfy(\.isEmpty),
                got: !allFinished
                    ? localized(
                        format: "loadIcons did not return within %d s", ja: "loadIcons が %d 秒以内に戻りませんでした",
                        Int(loadSeconds))
                    : wrongRows.allSatisfy(\.isEmpty)
                        ? localized("all rows right", ja: "すべての行が正しい")
                        : localized(
                            format: "wrong or missing icon on rows %@", ja: "%@ 行目のアイコンが違うか、ありません",
                            (wrongRows.first { !$0.isEmpty } ?? []).map { String($0 + 1) }.joined(separator: ", "))),
            setOnMainThread.result(
                setCalls > 0 && offMain == 0,
                got: setCalls == 0
                    ? localized("no icon was set", ja: "アイコンが 1 つもセットされませんでした")
                    : localized(
                        format: "%1$d of %2$@ off the main thread", ja: "%2$@のうち %1$d 回がメインスレッドの外でした", offMain,
                        localized(count: setCalls, "%d call", "%d calls", ja: "%d 回の呼び出し"))),
            sameRowsAsSerial.result(
                allFinished && runs.allSatisfy { $0.icons == serialIcons },
                got: runs.allSatisfy { $0.icons == serialIcons }
                    ? localized("the same rows", ja: "同じ行です")
                    : localized(
                        format: "%1$d icons set, %2$d wanted", ja: "セットされたアイコンは %1$d 個、期待は %2$d 個",
                        runs.first { $0.icons != serialIcons }?.icons.filter { $0 != nil }.count ?? 0,
                        serialIcons.filter { $0 != nil }.count)),
        ]
    }
}
