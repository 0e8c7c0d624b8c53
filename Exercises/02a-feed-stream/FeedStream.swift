// Exercise 02a: bridge URLSession's delegate callbacks into an AsyncStream that ends, and that a cancel ends.
// Check it: swift run workshop check 02a
import ExerciseChecks
import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux
#endif

/// The feed as it downloads, with no thread of our own: URLSession calls its delegate on its
/// own queue, the delegate yields each chunk into an `AsyncStream`, and the screen awaits them
/// on the main actor (`for await event in FeedStream.events(url: url)`).
/// As shipped every chunk arrives, but the stream never ends (the consumer's loop waits for
/// ever), an error page comes as if it were the feed, and a consumer that stops listening
/// leaves the download running to its end.
public enum FeedStream {
    /// Starts the request; its events come out of the stream, and the stream ends after the last.
    public static func events(url: URL) -> AsyncStream<FeedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedEvent.self)
        let configuration = URLSessionConfiguration.ephemeral
        // No URL cache: on Linux a task that consults one can be cancelled after it has finished,
        // which traps inside FoundationNetworking.
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 5
        let delegate = FeedDelegate(continuation: continuation)
        // `delegateQueue: nil`: URLSession makes a serial queue of its own for the callbacks.
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: url)
        // TODO(1): when the consumer stops listening (its task is cancelled), nothing stops the download:
        // set `continuation.onTermination` to cancel `task`, only through `delegate.redirects.cancel`.
        task.resume()
        return stream
    }
}

/// URLSession's delegate: each callback becomes one event, in the order they come. It keeps no
/// state of its own (only `let`s of Sendable types), so it is Sendable without a lock.
final class FeedDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let continuation: AsyncStream<FeedEvent>.Continuation
    /// Decides each redirect, and makes a cancel mid-redirect safe (see `RedirectLimit`).
    let redirects = RedirectLimit()

    init(continuation: AsyncStream<FeedEvent>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // TODO(2): an error page (HTTP 500) is downloaded as if it were the feed: for a status
        // outside 200..<300, yield `.failed`, finish the stream and answer `.cancel` instead.
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
        continuation.yield(.chunk(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // TODO(3): the last callback, and the stream does not end: the consumer's loop waits for
        // ever. Yield `.failed` if there is an error, then finish the stream.
        // Break URLSession's strong hold on its delegate (us), or both would live forever.
        session.finishTasksAndInvalidate()
    }
}
