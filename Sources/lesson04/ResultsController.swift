import WorkshopCore

/// The "view controller" both variants share: it owns the Screen and shows each API's result
/// as a row. It never fetches or parses; the variants decide where that runs.
/// Like a UIViewController, it lives on the main queue (every method checks).
final class ResultsController: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    let screen: Screen
    let trace: Trace
    private(set) var outcomes: [APIOutcome] = []

    init(screen: Screen, trace: Trace) {
        self.screen = screen
        self.trace = trace
    }

    func showLoading() {
        requireMainQueue()
        screen.table.placeholder = "loading..."
    }

    /// One API is in (or failed): add its row.
    func show(_ outcome: APIOutcome) {
        requireMainQueue()
        trace.measure("show \(outcome.api.name)") {
            outcomes.append(outcome)
            let shown = outcomes
            screen.table.reloadData(count: shown.count) { index in
                let o = shown[index]
                let text = o.failure.map { "failed: \($0)" }
                    ?? "\(o.records.count) \(o.api.recordElement)s, \(o.wireBodyBytes) B on the wire, \(o.body.count) B decoded"
                return TableRow(text: text, detail: "\(o.api.name) \(o.encoding.rawValue)")
            }
        }
        if let failure = outcome.failure { screen.status = "error: \(failure)" }
    }

    func roundFinished(_ encoding: Encoding) -> Bool {
        requireMainQueue()
        return outcomes.filter { $0.encoding == encoding }.count == XMLAPIs.all.count
    }
}
