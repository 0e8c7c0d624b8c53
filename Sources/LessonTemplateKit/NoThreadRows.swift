import Foundation
import WorkshopCore
import WorkshopServer

/// The no-thread variant: the job on the main thread. The Screen cannot draw a frame until the
/// answer is in.
///
/// TODO: the article's blocking way. As written, a stand-in: GET /timeline from the fixture
/// API, its entries shown as rows (the other two variants do the same job, elsewhere).
public enum NoThreadRows {
    @MainActor
    public static func run(_ controller: RowsController, endpoint: FixtureEndpoint, count: Int) {
        guard !controller.isCancelled else { return }  // before the request
        let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
        let rows: [TableRow]
        do {
            rows = try controller.trace.measure("fetch") { () throws(FetchError) in
                try Self.rows(from: try fetcher.fetchBlocking(url(endpoint, count: count)))
            }
        } catch {
            return controller.fail("\(error)")
        }
        guard !controller.isCancelled else { return }  // before the show
        controller.show(rows)
    }

    /// GET /timeline?count=N on the endpoint.
    static func url(_ endpoint: FixtureEndpoint, count: Int) -> URL { endpoint.url("/timeline?count=\(count)") }

    /// The timeline's entries as rows, or why not.
    static func rows(from data: Data) throws(FetchError) -> [TableRow] {
        do {
            return try JSONDecoder().decode([TimelineEntry].self, from: data).map {
                TableRow(text: $0.text, detail: $0.user.name)
            }
        } catch {
            throw .malformed(localized("not the timeline's JSON (%@)", "\(error)"), url: "/timeline")
        }
    }
}
