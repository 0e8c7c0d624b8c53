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
public enum FeedStream {
    public static func events(url: URL) -> AsyncStream<FeedEvent> {
        let delegate = FeedDelegate()
        let task = FeedSession.make(delegate: delegate).dataTask(with: url)
        // Only when nobody listens any more (a finished stream's task has finished), and through
        // `redirects`: a cancel that lands while a redirect is being decided traps on Linux.
        delegate.continuation.onTermination = { [redirects = delegate.redirects] ending in
            if case .cancelled = ending { redirects.cancel { task.cancel() } }
        }
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
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        // An error page is not the feed: say why, end the stream, and do not download it.
        guard (200..<300).contains(status) else {
            continuation.yield(.failed("HTTP \(status)"))
            continuation.finish()
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.chunk(data))
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // After a finish (an error page, a cancel), these are ignored: the stream has ended.
        if let error { continuation.yield(.failed(error.localizedDescription)) }
        continuation.finish()
        session.finishTasksAndInvalidate()  // else URLSession keeps its delegate (us) for ever
    }

    // Without it, a delegate session on Linux follows a server that redirects to itself until it traps.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) { redirects.decide(newRequest: request, completionHandler: completionHandler) }
}
