import Foundation
import WorkshopCore
import WorkshopServer

/// The async variant, the Swift 6 way: a task on the main actor awaits the request (the main
/// thread draws meanwhile), the parse runs off the main actor, the show on it. A cancel
/// cancels the task; every step after an `await` checks it.
///
/// TODO: the same job in Swift 6.
public struct AsyncRows: Sendable {
    public init() {}

    /// Called on the main thread; returns at once. The task finishes the work, on main.
    @MainActor
    public func start(_ controller: RowsController, endpoint: FixtureEndpoint, count: Int) {
        controller.showLoading()
        let trace = controller.trace
        let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
        controller.startTask {
            let rows: [TableRow]
            do {
                let data = try await trace.measure("fetch", lane: Trace.awaitingLane) { () async throws(FetchError) in
                    try await fetcher.fetch(NoThreadRows.url(endpoint, count: count))
                }
                guard !Task.isCancelled else { return }
                rows = try await Self.parse(data, trace: trace)
            } catch {
                return controller.fail("\(error)")
            }
            guard !Task.isCancelled else { return }  // before the show
            controller.show(rows)
        }
    }

    /// `@concurrent`: the parse runs off the main actor, in the task pool. (Merely
    /// `nonisolated`, it would run on its caller's actor, the main actor, since Package.swift
    /// turns on `NonisolatedNonsendingByDefault`.)
    @concurrent
    static func parse(_ data: Data, trace: Trace) async throws(FetchError) -> [TableRow] {
        try trace.measure("parse", lane: "task pool") { () throws(FetchError) in try NoThreadRows.rows(from: data) }
    }
}
