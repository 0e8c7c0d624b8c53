import Foundation
import WorkshopCore
import WorkshopServer

/// The async variant: the threaded variant's job in Swift 6. One task on the main actor runs
/// the two rounds in turn; each round is a task group of three child tasks, one per API. A
/// child awaits its download (no thread waits meanwhile) and parses it in an `@concurrent`
/// function, on Swift's shared pool of threads, never on main; the group hands each finished outcome
/// back to the main actor, which adds its row. No queue of our own, no `DispatchQueue.main`.
public struct AsyncFetch: Sendable {
    /// The lane of the parsing in the timeline: child tasks run on Swift's shared thread pool.
    static let taskPoolLane = "task pool"
    let endpoint: FixtureEndpoint

    public init(endpoint: FixtureEndpoint) {
        self.endpoint = endpoint
    }

    /// Called on the main thread; returns at once. Rows are added later, by the task, on main.
    @MainActor
    public func start(_ controller: ResultsController) {
        controller.showLoading()
        controller.startTask { await run(controller) }
    }

    /// The identity round, then the gzip round: `await` keeps them in order, as the threaded
    /// variant's "start the gzip round when the identity round is in" did by hand.
    @MainActor
    func run(_ controller: ResultsController) async {
        for encoding in Encoding.allCases {
            // Before a round's requests: a run cancelled (or given up) starts no new round.
            guard !Task.isCancelled else { return }
            await round(encoding, controller)
            if controller.failure != nil || Task.isCancelled { return }
        }
    }

    /// One round: the three downloads start together (the group's three children), and each
    /// row is added as soon as its API is parsed, in the order they finish.
    @MainActor
    func round(_ encoding: Encoding, _ controller: ResultsController) async {
        let roundStart = monotonicSeconds()
        let trace = controller.trace
        let timeout = endpoint.timeoutSeconds
        await withTaskGroup(of: APIOutcome.self) { group in
            for api in XMLAPIs.all {
                let url = endpoint.url(api.path)
                group.addTask {
                    await Self.fetchAndParse(
                        url, api: api, encoding: encoding, timeout: timeout, roundStart: roundStart, trace: trace)
                }
            }
            // Back on the main actor for each one: `show` touches the Screen. The group hands the
            // answers back in the order they finish; `RoundAnswers` (the threaded variant's too)
            // decides what to show, and when a failure is certain to be the cause, so that the
            // others are cancelled, not waited for in full.
            let answers = RoundAnswers()
            for await outcome in group {
                // After the await, before the show: an answer in hand when the user cancelled is dropped.
                if Task.isCancelled { return group.cancelAll() }
                if let shown = answers.add(outcome, onceTheCauseIsKnown: { group.cancelAll() }) {
                    controller.show(shown)
                }
            }
        }
    }

    /// One child task: await the download, then parse. `@concurrent`, so it runs on the shared
    /// pool and never on its caller's actor: parsing here cannot freeze the Screen. (Called from
    /// a child task it would run in the pool anyway; the attribute says it must, for any caller:
    /// with `NonisolatedNonsendingByDefault`, SE-0461, an upcoming feature this package turns on,
    /// a plain `nonisolated` async function runs on its caller's actor.)
    /// A download that was cancelled (another API's failure was the cause) comes back as such,
    /// with nothing to parse.
    @concurrent
    static func fetchAndParse(
        _ url: URL, api: XMLAPIs.API, encoding: Encoding, timeout: Double, roundStart: Double, trace: Trace
    ) async -> APIOutcome {
        let download = await trace.measure("fetch \(api.name)", lane: Trace.awaitingLane) {
            () async -> Result<DownloadTiming, FetchError> in
            do throws(FetchError) {
                return .success(try await TimedDownload.download(url, encoding: encoding, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        if case .failure(.cancelled) = download {
            return APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
        }
        return trace.measure("parse \(api.name)", lane: taskPoolLane) {
            APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
        }
    }
}
