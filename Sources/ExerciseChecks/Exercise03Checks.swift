import Dispatch
import Foundation
import Lesson03Kit
import WorkshopCore

/// The checks of exercise 03 (Exercises/03-icons-off-main): icons fetched on a queue and set
/// on their rows on the main queue.
public enum Exercise03Checks {
    public typealias LoadIcons = ([TimelineEntry], TableView, TimelineClient, DispatchQueue) -> Void

    public static let rows = 8
    public static let latency = 0.05

    /// Runs every check against `loadIcons`. Call on the main thread (it runs the main run loop).
    public static func run(_ loadIcons: LoadIcons) -> [CheckResult] {
        requireMainQueue()
        let server = FixtureServer(knobs: ServerKnobs(latencySeconds: latency))
        let endpoint: FixtureEndpoint
        do {
            endpoint = FixtureEndpoint(baseURL: try server.start(), server: server, knobs: server.knobs)
        } catch {
            return [
                CheckResult(
                    name: "fixture server starts", passed: false, expected: "a server on 127.0.0.1",
                    got: "\(error)", hint: 1)
            ]
        }
        defer { server.stop() }
        let client = TimelineClient(endpoint: endpoint)
        let entries = FixtureAPI.timeline(count: rows, baseURL: endpoint.baseURL.absoluteString)
        let table = TableView()
        table.reloadData(count: entries.count) { TableRow(text: entries[$0].text, detail: entries[$0].user.name) }

        let meter = StallMeter()
        meter.start()
        let imageQueue = DispatchQueue(label: "image-queue")
        loadIcons(entries, table, client, imageQueue)
        // The user scrolls: every cell is handed to another row while icons are on their way.
        table.reloadData(count: entries.count) { table.rows[$0] }
        let serialFetchSeconds = Double(rows) * latency
        let arrived = MainLoop.run(timeout: 10) { table.rows.allSatisfy { $0.icon != nil } }
        meter.stop()

        let wrongRows = table.rows.enumerated().filter { index, row in
            row.icon != nil && row.icon != FixtureAPI.icon(for: entries[index].user.name)
        }.map { $0.offset + 1 }
        let missing = table.rows.filter { $0.icon == nil }.count
        return [
            CheckResult(
                name: "returns at once (fetches off the main thread)",
                passed: meter.maxStallSeconds < 0.25 * serialFetchSeconds,
                expected: String(format: "the main thread's worst freeze under %.2f s", 0.25 * serialFetchSeconds),
                got: String(format: "a %.2f s freeze while %d icons were fetched", meter.maxStallSeconds, rows),
                hint: 1),
            CheckResult(
                name: "every icon arrives",
                passed: arrived,
                expected: "all \(rows) rows with an icon within 10 s",
                got: "\(counted(missing, "row")) without an icon", hint: 2),
            CheckResult(
                name: "icons land on the right rows after a reload",
                passed: arrived && wrongRows.isEmpty,
                expected: "each row shows its own user's icon",
                got: wrongRows.isEmpty
                    ? (arrived ? "all rows right" : "not all icons arrived")
                    : "wrong icon on rows \(wrongRows.map(String.init).joined(separator: ", "))",
                hint: 3),
        ]
    }
}
