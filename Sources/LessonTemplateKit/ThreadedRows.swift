import Dispatch
import Foundation
import WorkshopCore
import WorkshopServer

/// The threaded variant, the 2010 way: the same blocking job on a queue of its own, the rows
/// handed to the main queue. A cancel: every block checks the shared token before its side
/// effect (the request, the show), and cancelling it also cancels the request in flight; a
/// dispatch group says when the last block has ended.
///
/// TODO: the article's threaded way (queues, a thread, operations).
public struct ThreadedRows: Sendable {
    let queue = DispatchQueue.named("rows-queue")
    let token = CancelToken()
    let work = DispatchGroup()

    public init() {}

    /// Called on the main thread; returns at once. The work finishes later, on main.
    @MainActor
    public func start(_ controller: RowsController, endpoint: FixtureEndpoint, count: Int) {
        controller.onCancel { token.cancel() }
        controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        controller.showLoading()
        let trace = controller.trace
        let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
        queue.async(group: work) {
            guard !token.isCancelled else { return }  // before the request
            let result = Result { () throws(FetchError) in
                try trace.measure("fetch") { () throws(FetchError) in
                    let url = NoThreadRows.url(endpoint, count: count)
                    return try NoThreadRows.rows(from: try fetcher.fetchBlocking(url, cancelToken: token))
                }
            }
            DispatchQueue.main.async(group: work) {
                guard !token.isCancelled else { return }  // before the show: too late is no news
                switch result {
                case .success(let rows): controller.show(rows)
                case .failure(let error): controller.fail("\(error)")
                }
            }
        }
    }
}
