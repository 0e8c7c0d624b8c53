import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif
#if canImport(FoundationXML)
    import FoundationXML  // XMLParser lives here on Linux (built on libxml2)
#endif

/// The async variant: the same feed, streamed and parsed as it arrives, with no thread of our own.
///
///     URLSession's delegate ──yield──> AsyncStream ──for await (main actor)──> parser actor ──> Screen
///
/// The run-loop thread existed to have somewhere for the fetch's callbacks to land. Here they
/// land in an `AsyncStream`, and a `@MainActor` loop awaits them one by one: between chunks the
/// task is suspended and holds no thread at all, so there is nothing to sleep and nothing that
/// can spin. Each chunk goes to an actor that parses the items it completes, off the main
/// thread; the items come back here and go straight onto the Screen.
@MainActor
public final class AsyncFeed {
    /// The figures the threaded variant reports, measured the same way where there is a same way:
    /// `callbacks`, `chunks` and `bytes` as the events arrive; `callbacksOffThread` counts events
    /// handled off the main thread (the loop is `@MainActor`, whose jobs run on the main queue,
    /// which a lesson program's main thread serves: it should stay 0).
    public private(set) var probe = ThreadedFeed.Probe()
    /// `cpuSeconds`: CPU time (CLOCK_THREAD_CPUTIME_ID) our code spent taking the events in, the
    /// counterpart of the network thread's CPU. No thread waits in between, so idling costs
    /// nothing. `loopIterations` and `wakeUps`: trips round the `for await` loop (each is the
    /// task resuming for an event); `delays`: from the delegate's `yield` to this loop.
    public private(set) var stats = RunLoopThread.Stats()

    private let url: URL
    private let timeout: Double
    private let controller: FeedController

    /// `timeout`: seconds the fetch may go without hearing from the server (`--timeout`).
    public init(url: URL, timeout: Double, controller: FeedController) {
        self.url = url
        self.timeout = timeout
        self.controller = controller
    }

    /// Runs in the controller's task, on the main actor, until the feed has ended or failed.
    public func run() async {
        let trace = controller.trace
        let parser = FeedItemParser(url: url, trace: trace)
        // Before the request: a run cancelled before its task got going sends nothing.
        guard !Task.isCancelled else { return }
        var events = FeedEvents.stream(url: url, timeout: timeout).makeAsyncIterator()
        // `nil`: the stream ended without a last event, because the run's task was cancelled.
        while let event = await trace.measure(
            "wait", lane: Trace.awaitingLane, { await events.next(isolation: MainActor.shared) })
        {
            let cpu = threadCPUSeconds()
            stats.loopIterations += 1
            stats.wakeUps += 1
            stats.blocksRun += 1
            stats.delays.append(monotonicSeconds() - event.sentAt)
            probe.callbacks += 1
            if !MainPlace.here.isMain { probe.callbacksOffThread += 1 }
            if case .chunk(let data) = event.kind {
                probe.chunks += 1
                probe.bytes += data.count
            }
            stats.cpuSeconds += threadCPUSeconds() - cpu

            switch event.kind {
            case .response:
                continue
            case .chunk(let data):
                // The parse runs on the actor; this task waits for it without holding the main thread.
                let parsed = await parser.append(data)
                // After the await, before the show: items parsed just before a cancel are dropped.
                if Task.isCancelled { return }
                for item in parsed.items { controller.show(item) }  // on the table at the end of this turn
                if let failure = parsed.failure {
                    controller.fail("\(failure)")
                    return  // leaving the loop ends the stream, which cancels the request
                }
            case .end(let failure):
                probe.downloadEndedAt = event.sentAt
                if let failure { return controller.fail("\(failure)") }
                let verdict = await parser.finish()
                if Task.isCancelled { return }
                controller.finish(verdict)
                return
            }
        }
    }
}

/// What the URLSession delegate hands over, stamped with when it was handed over.
struct FeedEvent: Sendable {
    enum Kind: Sendable {
        case response
        case chunk(Data)
        /// Last: nil when the whole body arrived, else why not.
        case end(FetchError?)
    }
    var kind: Kind
    var sentAt = monotonicSeconds()
}

/// A URLSession data delegate that turns its callbacks into an `AsyncStream` (Linux has no
/// `URLSession.bytes`). It keeps no state of its own: each callback yields one event, in order.
final class FeedEvents: NSObject, URLSessionDataDelegate, Sendable {
    private let continuation: AsyncStream<FeedEvent>.Continuation
    private let url: URL
    private let timeout: Double
    /// Decides each redirect, and makes a cancel mid-redirect safe (see `RedirectLimit`).
    private let redirects = RedirectLimit()

    private init(continuation: AsyncStream<FeedEvent>.Continuation, url: URL, timeout: Double) {
        self.continuation = continuation
        self.url = url
        self.timeout = timeout
    }

    /// Starts the request; its events come out of the stream. A consumer that stops listening
    /// (its task cancelled, or it left the loop) cancels the request.
    static func stream(url: URL, timeout: Double) -> AsyncStream<FeedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedEvent.self)
        let configuration = URLSessionConfiguration.ephemeral
        // No URL cache: on Linux a task that consults one can be cancelled after it has finished,
        // which traps inside FoundationNetworking ("a task that is not in the registry").
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        let delegate = FeedEvents(continuation: continuation, url: url, timeout: timeout)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: url)
        continuation.onTermination = { [redirects = delegate.redirects] ending in
            // Only when nobody listens any more: a finished stream's task has finished too.
            // Through `redirects`: a cancel that lands while a redirect is decided traps on Linux.
            if case .cancelled = ending { redirects.cancel { task.cancel() } }
        }
        task.resume()
        return stream
    }

    // MARK: URLSessionDataDelegate (on URLSession's own delegate queue)

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            return refuse(.notHTTP(url: url.absoluteString), completionHandler)
        }
        // An error page is not the feed: keep it away from the parser.
        guard (200..<300).contains(http.statusCode) else {
            // A 3xx that reaches us is a redirect `redirects` refused to follow: too many of them.
            let status = http.statusCode
            let link = url.absoluteString
            return refuse(
                (300..<400).contains(status) ? .tooManyRedirects(url: link) : .httpStatus(status, url: link),
                completionHandler)
        }
        continuation.yield(FeedEvent(kind: .response))
        completionHandler(.allow)
    }

    /// Without this method, a delegate session on Linux follows a server that redirects to
    /// itself until FoundationNetworking traps (see `RedirectLimit`).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        redirects.decide(newRequest: request, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(FeedEvent(kind: .chunk(data)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let failure = error.map { FetchError(urlSessionError: $0, url: url.absoluteString, timeout: timeout) }
        continuation.yield(FeedEvent(kind: .end(failure)))  // ignored if the stream has ended already
        continuation.finish()
        // Break URLSession's strong hold on its delegate (us), or both would live forever.
        session.finishTasksAndInvalidate()
    }

    /// Ends the stream with `failure` and the task with it.
    private func refuse(
        _ failure: FetchError, _ completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        continuation.yield(FeedEvent(kind: .end(failure)))
        continuation.finish()
        completionHandler(.cancel)
    }
}

/// Parses the feed a chunk at a time, off the main thread. An actor: one chunk at a time, in
/// order, and its buffer needs no lock (an actor is a serial queue with the compiler's help).
///
/// FoundationXML has no push parser, and its stream parser would block a thread waiting for
/// bytes. But a feed's items are siblings that never nest, so each `<item>...</item>` is a
/// small document of its own: it is parsed as soon as its closing tag is in. What is left
/// (the channel around the items) is checked at the end, so a feed cut off half-way fails.
actor FeedItemParser {
    private let url: URL
    private let trace: Trace
    /// Bytes not yet part of a whole item.
    private var pending = Data()
    /// The document without its items, each replaced by as many newlines as it had lines, so
    /// that an error in it names the document's own line.
    private var frame = Data()
    private var linesBefore = 0
    private var count = 0

    init(url: URL, trace: Trace) {
        self.url = url
        self.trace = trace
    }

    /// Takes the next chunk; returns the items it completed, or why the feed is broken.
    func append(_ chunk: Data) -> (items: [FeedItem], failure: FetchError?) {
        trace.measure("parse", lane: "parser actor") {
            pending.append(chunk)
            var items: [FeedItem] = []
            while let close = pending.range(of: Self.close), let open = pending.range(of: Self.open) {
                let before = pending[..<open.lowerBound]
                let item = pending[open.lowerBound..<close.upperBound]
                frame += before
                linesBefore += Self.lines(in: before)
                // Leading newlines put the item on its own line number in the error messages.
                let document = Data(repeating: 0x0A, count: linesBefore) + item
                let outcome = FeedXMLDelegate.run(XMLParser(data: document), url: url) { items.append($0) }
                if case .failure(let error) = outcome { return (items, error) }
                let itemLines = Self.lines(in: item)
                frame += Data(repeating: 0x0A, count: itemLines)
                linesBefore += itemLines
                count += 1
                pending = Data(pending[close.upperBound...])
            }
            return (items, nil)
        }
    }

    /// The last byte is in: checks what surrounds the items. Returns how many items, or why not a feed.
    func finish() -> Result<Int, FetchError> {
        trace.measure("check", lane: "parser actor") {
            let parser = XMLParser(data: frame + pending)
            _ = parser.parse()
            if let error = parser.parserError {
                let why = FeedXMLDelegate.notWellFormed(parser, FeedXMLDelegate.reason(error))
                return .failure(.malformed(why, url: url.absoluteString))
            }
            return count > 0 ? .success(count) : .failure(.malformed(FeedXMLDelegate.notAFeed, url: url.absoluteString))
        }
    }

    private static let open = Data("<item>".utf8)
    private static let close = Data("</item>".utf8)
    private static func lines(in bytes: Data) -> Int { bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
}
