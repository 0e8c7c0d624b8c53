// What exercise 02a's file codes against: the session its stream runs on and the events it
// hands over, as the app gives them. Compiled with your file, the checks and the driver (and
// seen by your editor through ../compile_flags.txt).
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session exercise 02a's stream runs on, so that the learner's file holds only the bridge.
public enum FeedSession {
    /// A session that calls `delegate` on a serial queue of its own (`delegateQueue: nil`): no
    /// thread of the learner's. No URL cache: on Linux a task that consults one can be cancelled
    /// after it has finished, which traps inside FoundationNetworking. A server silent for 5 s
    /// fails the request.
    public static func make(delegate: any URLSessionDelegate) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 5
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }
}

/// What exercise 02a's stream hands its consumer, one event per delegate callback that matters.
public enum FeedEvent: Sendable, Equatable {
    /// The next bytes of the feed, as the delegate received them.
    case chunk(Data)
    /// The download ended without the whole feed (an error page, a lost connection): why.
    case failed(String)
}
