// Exercise 02a: bridge URLSession's delegate callbacks into an AsyncStream that ends, and that a cancel ends.
// Check it: swift run workshop check 02a
import ExerciseChecks
import Foundation
import WorkshopCore
#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux
#endif

/// The feed as it downloads, with no thread of our own: URLSession calls the delegate on a queue
/// of its own, the delegate yields into an `AsyncStream`, the screen awaits it on the main actor.
/// As shipped the stream never ends, an error page passes for the feed, and a cancel stops nothing.
public enum FeedStream {
    public static func events(url: URL) -> AsyncStream<FeedEvent> {
        let delegate = FeedDelegate()
        let task = FeedSession.make(delegate: delegate).dataTask(with: url)
        // TODO(1): a consumer that stops listening (its task cancelled) leaves the download running:
        // set `delegate.continuation.onTermination` to cancel `task`, only through `delegate.redirects`.
        task.resume()
        return delegate.stream
    }
}

/// Each callback becomes one event, in order. Only `let`s of Sendable types: Sendable, no lock.
final class FeedDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let (stream, continuation) = AsyncStream.makeStream(of: FeedEvent.self)
    let redirects = RedirectLimit()  // decides each redirect; makes a cancel mid-redirect safe

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // TODO(2): an error page (HTTP 500) passes for the feed: yield `.failed`, finish, answer `.cancel`.
        completionHandler(.allow)
    }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.chunk(data))
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // TODO(3): the stream never ends and the loop waits for ever: yield `.failed` on an error, then finish.
        session.finishTasksAndInvalidate()  // else URLSession keeps its delegate (us) for ever
    }

    // Without it, a delegate session on Linux follows a server that redirects to itself until it traps.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) { redirects.decide(newRequest: request, completionHandler: completionHandler) }
}
