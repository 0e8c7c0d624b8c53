import Foundation
import Testing

@testable import WorkshopCore

@Suite("gzip")
struct GzipTests {
    @Test("round trip, and zlib level 6 shrinks repetitive text")
    func roundTrip() throws {
        let text = Array(String(repeating: "<item><title>サクサク</title></item>\n", count: 200).utf8)
        let packed = try Gzip.compress(text)
        #expect(Array(packed.prefix(2)) == [0x1f, 0x8b])
        #expect(packed.count < text.count / 10)
        #expect(try Gzip.decompress(packed) == text)
        #expect(try Gzip.decompress(try Gzip.compress([])) == [])
    }

    @Test("garbage and cut streams throw")
    func garbage() throws {
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array("hello".utf8)) }
        let packed = try Gzip.compress(Array(String(repeating: "abc", count: 1000).utf8))
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(packed.prefix(packed.count - 6))) }
    }
}

@Suite("Report")
struct ReportTests {
    let report = LessonReport(
        lesson: "03", title: "a \"quoted\" title",
        parameters: [(.rows, .count(20)), (.latencySeconds, .seconds(0.15))],
        variants: [
            VariantResult(
                name: "no-thread", metrics: [(.totalSeconds, .seconds(3.2)), (.droppedFrames, .count(190))]),
            VariantResult(name: "threaded", metrics: [(.totalSeconds, .seconds(0.7)), (.droppedFrames, .count(0))]),
        ],
        takeaway: "threads keep the screen alive")

    @Test("JSON is one document in the design note's shape")
    func json() throws {
        let object = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        #expect(object?["lesson"] as? String == "03")
        #expect(object?["title"] as? String == "a \"quoted\" title")
        let variants = object?["variants"] as? [[String: Any]]
        #expect(variants?.map { $0["name"] as? String } == ["no-thread", "threaded"])
        let metrics = variants?.first?["metrics"] as? [String: Any]
        #expect(metrics?[MetricName.totalSeconds.rawValue] as? Double == 3.2)
        #expect(metrics?[MetricName.droppedFrames.rawValue] as? Int == 190)
    }

    @Test("the table puts variants side by side")
    func table() {
        let lines = report.table.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].contains("no-thread") && lines[0].contains("threaded"))
        #expect(lines[2].contains("3.200 s") && lines[2].contains("0.700 s"))
    }
}

@Suite("Trace and terminal text")
struct TraceTests {
    @Test("spans land in the lane of the queue that ran them")
    func lanes() {
        let trace = Trace()
        let queue = DispatchQueue.named("worker")
        queue.sync { trace.measure("work") {} }
        trace.measure("elsewhere", lane: "custom") {}
        #expect(trace.recorded.map(\.lane) == ["worker", "custom"])
        #expect(trace.timeline().contains("worker"))
    }

    @Test("lanes: main first, then by first use, numbered queues by their number (not as they happened to start)")
    func laneOrder() {
        // Four image queues started together: their first spans begin in any order.
        let started: [(String, Double)] = [
            ("awaiting (no thread)", 0.0005), ("image-queue-1", 0.003), ("image-queue-4", 0.001),
            ("image-queue-3", 0.002), ("main", 0.005), ("image-queue-2", 0.004), ("task pool", 0.006),
            ("image-queue-10", 0.0012),
        ]
        let spans = started.map { Trace.Span(lane: $0.0, name: "work", start: $0.1, end: $0.1 + 0.5) }
        let wanted = [
            "main", "awaiting (no thread)", "image-queue-1", "image-queue-2", "image-queue-3", "image-queue-4",
            "image-queue-10", "task pool",
        ]
        #expect(Trace.laneOrder(spans) == wanted)
        #expect(TimelinePicture.laneOrder(spans) == wanted)
        // The text timeline, spans recorded as they ended (queue 4 first), lists them the same way.
        let trace = Trace()
        for lane in ["image-queue-4", "image-queue-3", "image-queue-1", "image-queue-2"] {
            DispatchQueue.named(lane).sync { trace.measure("icon") {} }
        }
        let shown = trace.timeline().split(separator: "\n").dropLast().map { $0.split(separator: " ").first ?? "" }
        #expect(shown == ["image-queue-1", "image-queue-2", "image-queue-3", "image-queue-4"])
        #expect(Trace.numbered("main") == nil && Trace.numbered("42") == nil)
    }

    @Test("wide characters take two cells")
    func width() {
        #expect(terminalWidth("abc") == 3)
        #expect(terminalWidth("秋の田") == 6)
        #expect(terminalWidth(truncate("秋の田のかりほの庵の", toWidth: 7)) <= 7)
    }
}

@Suite("Screen")
struct ScreenTests {
    @Test("an update from a background queue traps (the Main Thread Checker of the workshop)")
    func offMainTraps() async {
        await #expect(processExitsWith: .failure) {
            let table = TableView()
            DispatchQueue.global().sync {
                table.reloadData(count: 1) { _ in TableRow(text: "from the wrong thread") }
            }
        }
    }

    @Test("the same update on the main queue is accepted")
    @MainActor
    func onMainAccepted() {
        let table = TableView()
        table.reloadData(count: 2) { TableRow(text: "row \($0)") }
        #expect(table.rows.count == 2)
        table.cell(forRow: 1)?.icon = [1, 2, 3]
        #expect(table.rows[1].icon == [1, 2, 3])
    }

    @Test("reloadData hands cells to other rows, like UITableView's reuse")
    @MainActor
    func reuse() throws {
        let table = TableView()
        table.reloadData(count: 3) { TableRow(text: "row \($0)") }
        let cell = try #require(table.cell(forRow: 0))
        #expect(cell.row == 0)
        table.reloadData(count: 3) { table.rows[$0] }
        #expect(cell.row != 0)
        #expect(table.cell(forRow: 0)?.row == 0)
    }
}

/// The Screen is the app's UI: it speaks its user's language. What `onChange` hands tests and
/// checks stays English (an identity); what it prints follows the program's language.
struct ScreenWordsTests {
    static let events: [ScreenEvent] = [
        .placeholder("loading..."), .reload(rows: 20), .reload(rows: 1), .scroll(first: 9, last: 16),
        .icon(row: 3), .status("failed"),
    ]

    @Test func everyEventHasItsJapaneseAndKeepsItsFigures() {
        for event in Self.events {
            let english = event.text(in: .en)
            let japanese = event.text(in: .ja)
            #expect(english == event.description)
            #expect(japanese != english, "\(english) has no Japanese")
            let digits = { (text: String) in text.filter(\.isNumber) }
            #expect(digits(japanese) == digits(english), "\(english) / \(japanese): the same figures")
        }
        #expect(ScreenEvent.reload(rows: 20).text(in: .en) == "reload: 20 rows")
        #expect(ScreenEvent.reload(rows: 20).text(in: .ja) == "再読み込み: 20 行")
    }
}
