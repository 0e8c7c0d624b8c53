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
        thread.post { [self] in begin() }
    }

    private func begin() {
        let controller = controller
        if parsing == .streaming {
            parser = StreamingFeedParser(
                url: url, onItem: { item in DispatchQueue.main.async { controller.show(item) } },
                onEnd: { outcome in DispatchQueue.main.async { controller.finish(outcome) } })
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
        let controller = controller
        if let error {
            parser?.abort()
            DispatchQueue.main.async { controller.fail("\(error)") }
            return
        }
        switch parsing {
        case .streaming:
            parser?.finish()
        case .afterDownload:
            // Only now can parsing begin: the first item waits for the last byte.
            let outcome = FeedParser.parse(buffer, url: url) { item in
                DispatchQueue.main.async { controller.show(item) }
            }
            DispatchQueue.main.async { controller.finish(outcome.map(\.count)) }
        }
    }
}
