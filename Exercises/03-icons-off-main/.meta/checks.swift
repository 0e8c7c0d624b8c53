import Dispatch
import ExerciseChecks
import Foundation
import Lesson03Kit
import WorkshopCore
import WorkshopServer

/// The checks of exercise 03 (Exercises/03-icons-off-main): icons fetched on a queue and set
/// on their rows on the main queue.
public enum Exercise03Checks {
    public typealias LoadIcons = ([TimelineEntry], TableView, TimelineClient, DispatchQueue) -> Void

    public static let rows = 8
    public static let latency = 0.05

    // The checks, in the order they report: each declared once, in both languages.
    static let fetchesOffMain = Check(
        "fetches off the main thread", ja: "メインスレッドの外で取得する",
        wanted: "while each icon is fetched, the main thread is free (a block on the main queue runs)",
        ja: "どのアイコンの取得中も、メインスレッドが空いている（メインキューのブロックが実行される）", hint: 1)
    static let neverHangs = Check(
        "the Screen never hangs", ja: "Screen がフリーズしない",
        wanted: String(
            format: "no freeze of %.2f s or more beyond this machine's own lateness with no work", Hang.seconds),
        ja: String(format: "何もしていないときのこのマシン自身の遅れを超えて、%.2f 秒以上のフリーズがない", Hang.seconds), hint: 1)
    static let everyIcon = Check(
        "every icon arrives", ja: "すべてのアイコンが届く",
        wanted: "all \(rows) rows with an icon within 10 s", ja: "10 秒以内に \(rows) 行すべてにアイコンが付く", hint: 2)
    static let rightRows = Check(
        "icons land on the right rows after a reload", ja: "リロード後もアイコンが正しい行に付く",
        wanted: "each row shows its own user's icon", ja: "どの行にも、その行のユーザのアイコンが表示される", hint: 3)
    public static let all = [fetchesOffMain, neverHangs, everyIcon, rightRows]

    /// Runs every check against `loadIcons`. Call on the main thread (it runs the main run loop).
    public static func run(_ loadIcons: LoadIcons) -> [CheckResult] {
        requireMainQueue()
        // Every icon request waits, on the server's thread, for a block on the main queue: it
        // runs unless the main thread itself is waiting for that icon.
        let probe = MainQueueProbe()
        let routes = FixtureAPI.routes.map { prefix, route -> (prefix: String, route: FixtureServer.Route) in
            guard prefix == "/icons/" else { return (prefix, route) }
            return (
                prefix,
                { request, baseURL in
                    // The server waited `latency` before routing: the fetch began then.
                    let began = monotonicSeconds() - latency
                    let free = probe.hold(path: request.path)
                    let answer = route(request, baseURL)
                    // The picture's lanes: "main" when the main thread waited for this icon.
                    let lane = free ? "off main (a queue)" : "main"
                    let name = "fetch icon " + (request.path.split(separator: "/").last.map(String.init) ?? "")
                    CheckTimelineRecorder.span(lane, name, from: began, to: monotonicSeconds())
                    return answer
                }
            )
        }
        let server = FixtureServer(knobs: ServerKnobs(latencySeconds: latency), routes: routes)
        let endpoint: FixtureEndpoint
        do {
            endpoint = FixtureEndpoint(baseURL: try server.start(), server: server, knobs: server.knobs)
        } catch {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
                    got: "\(error)", hint: 1)
            ]
        }
        defer { server.stop() }
        let client = TimelineClient(endpoint: endpoint)
        let entries = FixtureAPI.timeline(count: rows, baseURL: endpoint.baseURL.absoluteString)
        let table = TableView()
        table.reloadData(count: entries.count) { TableRow(text: entries[$0].text, detail: entries[$0].user.name) }

        // The control: this machine's main loop with nothing to do, just before.
        let control = mainLoopControlLateness()
        let meter = StallMeter()
        CheckTimelineRecorder.start()
        meter.start()
        let imageQueue = DispatchQueue(label: "image-queue")
        loadIcons(entries, table, client, imageQueue)
        // The user scrolls: every cell is handed to another row while icons are on their way.
        table.reloadData(count: entries.count) { table.rows[$0] }
        let arrived = MainLoop.run(timeout: 10) { table.rows.allSatisfy { $0.icon != nil } }
        meter.stop()
        CheckTimelineRecorder.finish(stalls: meter)

        let verdicts = probe.verdicts
        let blocked = verdicts.filter { !$0.mainWasFree }.count
        let hang = max(0, meter.maxStallSeconds - control)
        let wrongRows = table.rows.enumerated().filter { index, row in
            row.icon != nil && row.icon != FixtureAPI.icon(for: entries[index].user.name)
        }.map { $0.offset + 1 }
        let missing = table.rows.filter { $0.icon == nil }.count
        return [
            fetchesOffMain.result(
                !verdicts.isEmpty && blocked == 0,
                got: verdicts.isEmpty
                    ? localized("no icon was fetched", ja: "アイコンが 1 つも取得されませんでした")
                    : blocked == 0
                        ? localized(
                            format: "the main thread was free during all %@", ja: "%@のすべてで、メインスレッドは空いていました",
                            localized(count: verdicts.count, "%d fetch", "%d fetches", ja: "%d 回の取得"))
                        : localized(
                            format: "the main thread was waiting for the icon during %1$d of %2$@",
                            ja: "%2$@のうち %1$d 回で、メインスレッドがアイコンを待っていました", blocked,
                            localized(count: verdicts.count, "%d fetch", "%d fetches", ja: "%d 回の取得"))),
            neverHangs.result(
                hang < Hang.seconds,
                got: localized(
                    format: "a worst freeze of %.2f s, %.2f s beyond the %.2f s of the machine with no work",
                    ja: "最大フリーズは %1$.2f 秒で、何もしていないときのマシンの %3$.2f 秒を %2$.2f 秒上回りました",
                    meter.maxStallSeconds, hang, control)),
            everyIcon.result(
                arrived,
                got: localized(
                    format: "%@ without an icon", ja: "アイコンのない行が %@",
                    localized(count: missing, "%d row", "%d rows", ja: "%d 行"))),
            rightRows.result(
                arrived && wrongRows.isEmpty,
                got: wrongRows.isEmpty
                    ? (arrived
                        ? localized("all rows right", ja: "すべての行が正しい")
                        : localized("not all icons arrived", ja: "届かなかったアイコンがあります"))
                    : wrongRows.count == 1
                        ? localized(
                            format: "wrong icon on row %@", ja: "%@ 行目のアイコンが違います",
                            wrongRows.map(String.init).joined(separator: ", "))
                        : localized(
                            format: "wrong icon on rows %@", ja: "%@ 行目のアイコンが違います",
                            wrongRows.map(String.init).joined(separator: ", "))),
        ]
    }
}
