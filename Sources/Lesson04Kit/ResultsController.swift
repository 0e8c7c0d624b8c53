import WorkshopCore
import WorkshopServer

/// The "view controller" both variants share: it shows each API's result as a row. It never
/// fetches or parses; the variants decide where that runs. `@MainActor`, like a
/// UIViewController: only main-thread code may call it.
@MainActor
public final class ResultsController: LessonController {
    public private(set) var outcomes: [APIOutcome] = []
    /// Stops whatever is still downloading; the threaded variant sets it for each round.
    var cancelOutstanding: (() -> Void)?

    /// Both rounds (identity, then gzip) in, three APIs each.
    override public var isFinished: Bool { super.isFinished || outcomes.count == 2 * XMLAPIs.all.count }
    override public var progress: String {
        localized("%d of %d downloads in", outcomes.count, 2 * XMLAPIs.all.count)
    }

    /// One API is in: add its row. A failed one ends the run: without all six, there is
    /// nothing to compare, so whatever is still downloading is cancelled, not waited for.
    public func show(_ outcome: APIOutcome) {
        guard failure == nil else { return }  // a late answer after the run has failed
        if let failure = outcome.failure {
            fail(failure)
            cancelOutstanding?()
            return
        }
        trace.measure("show \(outcome.api.name)") {
            outcomes.append(outcome)
            let shown = outcomes
            screen.table.reloadData(count: shown.count) { index in
                let o = shown[index]
                return TableRow(
                    text: "\(counted(o.records.count, o.api.recordElement)), \(o.wireBodyBytes) B on the wire, "
                        + "\(o.body.count) B decoded",
                    detail: "\(o.api.name) \(o.encoding.rawValue)")
            }
        }
    }

    func roundFinished(_ encoding: Encoding) -> Bool {
        outcomes.filter { $0.encoding == encoding }.count == XMLAPIs.all.count
    }
}
