// What exercise 01b's file codes against: the items' client and the screen, as the app gives
// them, and the protocol the checks drive its loader through. Compiled with your file, the
// checks and the driver (and seen by your editor through ../compile_flags.txt).
import Dispatch
import ExerciseChecks
import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise 01b's items: `item(_:cancelToken:)` fetches one item's title from the check's own
/// fixture server with a blocking request (the articles' `sendSynchronousRequest:`), on the
/// calling thread. It logs every call: on which thread it ran, when it started and how it ended.
public struct ItemClient: Sendable {
    struct Call: Sendable {
        var id: Int
        var onMainThread: Bool
        var started: Double
        var ended: Double?
        var outcome = "in flight"
    }

    let fetcher: HTTPFetcher
    let baseURL: URL
    /// Every call so far. A lock: calls come from the loader's queue, the checks read on main.
    let log = Locked<[Call]>([])
    /// Called on the calling thread when call `id` has its answer, before it returns it.
    let onAnswer: (@Sendable (Int) -> Void)?

    init(baseURL: URL, onAnswer: (@Sendable (Int) -> Void)? = nil) {
        self.fetcher = HTTPFetcher(timeout: 5)
        self.baseURL = baseURL
        self.onAnswer = onAnswer
    }

    /// The title of item `id`, as the server sends it.
    public static func title(of id: Int) -> String { "item \(id)" }

    /// Blocks the calling thread until item `id`'s title is in, and returns it. With a
    /// `cancelToken`: once the token is cancelled the call sends nothing, and cancelling it while
    /// the request is in flight stops the request; either way the call throws `.cancelled`.
    public func item(_ id: Int, cancelToken: CancelToken? = nil) throws(FetchError) -> String {
        let url = baseURL.appendingPathComponent("items/\(id)")
        let index = log.withLock { calls in
            calls.append(Call(id: id, onMainThread: MainPlace.here.isMain, started: monotonicSeconds()))
            return calls.count - 1
        }
        func end(_ outcome: String) {
            log.withLock {
                $0[index].ended = monotonicSeconds()
                $0[index].outcome = outcome
            }
        }
        let data: Data
        do {
            data = try fetcher.fetchBlocking(url, cancelToken: cancelToken)
        } catch {
            if case .cancelled = error { end("cancelled") } else { end("failed") }
            throw error
        }
        end("answered")
        onAnswer?(id)
        return String(decoding: data, as: UTF8.self)
    }

    var calls: [Call] { log.current }
}

/// Exercise 01b's screen: it belongs to the main actor, like a UIKit view, and records every row
/// it was asked to show.
@MainActor
public final class ItemScreen {
    struct Shown {
        var row: Int
        var item: String
        var at: Double
    }

    var shown: [Shown] = []

    public init() {}

    /// Shows `item` on row `row`.
    public func show(_ item: String, row: Int) {
        shown.append(Shown(row: row, item: item, at: monotonicSeconds()))
    }
}

/// What the checks drive: the learner's loader. (The driver adds the conformance, so the
/// learner's file does not have to name it.)
public protocol ItemLoading: Sendable {
    /// Called on main; queues one fetch per id and returns immediately.
    @MainActor func start(ids: [Int])
    /// Called on main: the user left the screen.
    @MainActor func cancel()
    /// Counts every block `start` queued: `notify` says when the last one has ended.
    var work: DispatchGroup { get }
}
