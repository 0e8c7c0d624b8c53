import Foundation
import WorkshopCore
import WorkshopServer

/// The same job in Swift 6: no queue of our own, no thread of our own.
///
/// - the timeline is fetched in a `Task` on the main actor: `await` gives the main thread
///   back to the Screen while the request is out, and the JSON is decoded off main, in an
///   `@concurrent` function;
/// - the icons of the rows that come on the screen are fetched in a task group, at most
///   `imageWidth` at once (the image queues' width), and each one is set on the main actor,
///   by row index, as soon as it is in.
///
/// Nothing here needs a lock: the controller and the table live on the main actor, and a
/// child task only returns a value (row index, icon bytes) that the main actor then uses.
public struct AsyncTimeline: Sendable {
    let imageWidth: Int

    public init(imageWidth: Int) {
        self.imageWidth = max(1, imageWidth)
    }

    /// Called on the main thread; returns at once. The task finishes the work, on main.
    @MainActor
    public func start(_ controller: TimelineController, client: TimelineClient, rows: Int) {
        controller.showLoading()
        // Rows that come into view, from the table's willDisplay to this variant's task, in order.
        let (wantedRows, wanted) = AsyncStream.makeStream(of: [Int].self)
        controller.iconsWanted = { wanted.yield($0) }
        let trace = controller.trace
        controller.startTask {
            let entries: [TimelineEntry]
            do {
                // `await` suspends the task; main is free until the timeline is in and decoded.
                entries = try await Self.timeline(count: rows, client: client, trace: trace)
            } catch {
                return controller.fail("\(error)")
            }
            // The answer may have come in just before a cancel: once cancelled, it is no news.
            guard !Task.isCancelled else { return }
            controller.showTimeline(entries)
            // Ends when the harness cancels the task at the end of the run.
            for await rows in wantedRows {
                await loadIcons(rows, client: client, into: controller)
            }
        }
    }

    /// `@concurrent`, so it runs in the task pool, off main: the request (no thread held while
    /// it waits), then the decoding. The attribute is what sends it there. With the upcoming
    /// feature `NonisolatedNonsendingByDefault` (SE-0461; on in this package's Package.swift, and
    /// in a new Xcode 26 app project through "Approachable Concurrency"; off in Swift 6.2 and 6.3
    /// otherwise) a function that is merely not isolated runs on its caller's actor, and the caller
    /// here is the main actor: without `@concurrent` the JSON would be decoded on main.
    @concurrent
    static func timeline(count: Int, client: TimelineClient, trace: Trace) async throws(FetchError)
        -> [TimelineEntry]
    {
        let url = client.endpoint.url("/timeline?count=\(count)")
        let data = try await trace.measure("fetch timeline", lane: Trace.awaitingLane) { () async throws(FetchError) in
            try await client.fetcher.fetch(url)
        }
        return try trace.measure("decode timeline", lane: "task pool") { () throws(FetchError) in
            do { return try JSONDecoder().decode([TimelineEntry].self, from: data) } catch {
                throw .malformed(localized("not the timeline's JSON (%@)", "\(error)"), url: url.absoluteString)
            }
        }
    }

    /// A task group fetches the icons, `imageWidth` at a time; the loop below runs on the main
    /// actor and sets each icon on its row the moment it is in (in arrival order).
    @MainActor
    func loadIcons(_ rows: [Int], client: TimelineClient, into controller: TimelineController) async {
        let trace = controller.trace
        let jobs = rows.map { (row: $0, entry: controller.entries[$0]) }
        await withTaskGroup(of: (row: Int, icon: [UInt8]?).self) { group in
            var next = 0
            func addNextFetch() {
                guard next < jobs.count else { return }
                let (row, entry) = jobs[next]
                next += 1
                // A child task is not on the main actor: it only awaits the network.
                group.addTask {
                    let icon = try? await trace.measure("fetch icon \(row + 1)", lane: Trace.awaitingLane) {
                        () async throws(FetchError) in try await Self.icon(for: entry, client: client)
                    }
                    return (row, icon)
                }
            }
            for _ in 0..<imageWidth { addNextFetch() }
            while let fetched = await group.next() {
                // The run is over (it failed or timed out): the cancelled fetches are no news.
                if Task.isCancelled { return group.cancelAll() }
                controller.showIcon(fetched.icon, forRow: fetched.row)  // on main, by row index
                addNextFetch()  // one in, the next one out: never more than imageWidth at once
            }
        }
    }

    /// The user's icon, from the URL the timeline gave. Not `@concurrent`: a child task of the
    /// group calls it, and a child task is not on the main actor, so it runs in the task pool
    /// either way; and it only awaits the network.
    static func icon(for entry: TimelineEntry, client: TimelineClient) async throws(FetchError) -> [UInt8] {
        guard let url = URL(string: entry.user.profileImageURL) else { throw .badURL(entry.user.profileImageURL) }
        return Array(try await client.fetcher.fetch(client.endpoint.withKnobs(url)))
    }
}
