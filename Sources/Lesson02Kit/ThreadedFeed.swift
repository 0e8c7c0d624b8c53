import Foundation
import WorkshopCore

/// The threaded variant: the job the network thread runs for one feed. It fetches the feed
/// and parses it either chunk by chunk (streaming) or once it has all arrived (after
/// download). The main thread only hands it over and, later, receives items.
///
/// It lives on the network thread: it starts there, and every callback of its fetch runs there.
// @unchecked: confined to the network thread (`thread.isCurrent` is checked in every callback); `probe` is a Locked
public final class ThreadedFeed: @unchecked Sendable {
    public enum Parsing: String, Sendable {
        case streaming
        case afterDownload = "after-download"
    }

    /// What an observer on another thread may read: counted on the network thread, under a lock.
    public struct Probe: Sendable {
        public var callbacks = 0
        public var callbacksOffThread = 0
        public var chunks = 0
        public var bytes = 0
        public var downloadEndedAt: Double?
    }

    let probe = Locked(Probe())
    /// The user's Cancel, seen from the network thread and from main: set on main (`cancel()`),
    /// read before each side effect on either thread.
    private let cancelToken = CancelToken()
    /// Whether the fetch has still to end (started, not yet completed or refused).
    private let running = Locked(false)
    private let thread: RunLoopThread
    private let url: URL
    private let parsing: Parsing
    private let controller: FeedController
    private let timeout: Double
    private var fetch: ThreadFetch?
    private var parser: StreamingFeedParser?
    private var buffer = Data()

    /// `timeout`: seconds the fetch may go without hearing from the server (`--timeout`).
    init(url: URL, parsing: Parsing, thread: RunLoopThread, controller: FeedController, timeout: Double) {
        self.url = url
        self.timeout = timeout
        self.parsing = parsing
        self.thread = thread
        self.controller = controller
    }

    /// Hands the whole job to the network thread and returns at once.
    func start() {
        running.withLock { $0 = true }
        if !thread.post({ [self] in begin() }) { running.withLock { $0 = false } }
    }

    /// The user's Cancel (call on main): from now on nothing is shown, and the network thread
    /// cancels the request and the parse at its next turn. A block already queued on main
    /// checks the token again before it shows anything.
    func cancel() {
        cancelToken.cancel()
        thread.post { [self] in
            parser?.abort()
            fetch?.cancel()  // its completion still comes, with "cancelled", and is dropped
        }
    }

    /// Whether the fetch is still under way (the harness waits for it before tearing down).
    var isRunning: Bool { running.withLock { $0 } }

    /// Hands `work` to main, where it runs unless the run was cancelled in between.
    private func onMain(_ work: @escaping @MainActor (FeedController) -> Void) {
        let (controller, token) = (controller, cancelToken)
        DispatchQueue.main.async {
            guard !token.isCancelled, !controller.isCancelled else { return }  // before the show
            work(controller)
        }
    }

    private func begin() {
        // Before the request: a job cancelled while it waited for the thread sends nothing.
        guard !cancelToken.isCancelled else { return running.withLock { $0 = false } }
        if parsing == .streaming {
            parser = StreamingFeedParser(
                url: url, onItem: { [self] item in onMain { $0.show(item) } },
                onEnd: { [self] outcome in onMain { $0.finish(outcome) } })
        }
        let fetch = ThreadFetch(
            url: url, on: thread, timeout: timeout,
            callbacks: FetchCallbacks(
                response: { [self] _ in noteCallback() },
                data: { [self] chunk in received(chunk) },
                completion: { [self] error in completed(error) }))
        self.fetch = fetch
        // If the thread is stopped mid-fetch, end everything this job started, on the thread.
        thread.atExit { [self] in
            parser?.abort()
            fetch.cancel()
        }
        fetch.start()
    }

    private func noteCallback(chunk: Int? = nil) {
        let onThread = thread.isCurrent
        probe.withLock { probe in
            probe.callbacks += 1
            if !onThread { probe.callbacksOffThread += 1 }
            if let chunk {
                probe.chunks += 1
                probe.bytes += chunk
            }
        }
    }

    private func received(_ chunk: Data) {
        noteCallback(chunk: chunk.count)
        controller.trace.measure("download chunk", lane: thread.name) {
            switch parsing {
            case .streaming: parser?.append(chunk)  // parsed while the rest is still on its way
            case .afterDownload: buffer.append(chunk)
            }
        }
    }

    private func completed(_ error: FetchError?) {
        noteCallback()
        probe.withLock { $0.downloadEndedAt = monotonicSeconds() }
        defer { running.withLock { $0 = false } }
        if let error {
            parser?.abort()
            onMain { $0.fail("\(error)") }
            return
        }
        // A cancelled run's feed, even complete, is not parsed: nobody will see it.
        if cancelToken.isCancelled {
            parser?.abort()
            return
        }
        switch parsing {
        case .streaming:
            parser?.finish()
        case .afterDownload:
            // Only now can parsing begin: the first item waits for the last byte.
            let outcome = FeedParser.parse(buffer, url: url) { [self] item in onMain { $0.show(item) } }
            onMain { $0.finish(outcome.map(\.count)) }
        }
    }
}
