import Foundation
import WorkshopCore
import WorkshopServer

/// The client side of the fixture API's timeline, in the articles' synchronous style:
/// each call waits for its answer on the calling thread. Which thread that is, is the lesson.
public struct TimelineClient: Sendable {
    public let endpoint: FixtureEndpoint
    public let fetcher: HTTPFetcher

    public init(endpoint: FixtureEndpoint, fetcher: HTTPFetcher? = nil) {
        self.endpoint = endpoint
        self.fetcher = fetcher ?? HTTPFetcher(timeout: endpoint.timeoutSeconds)
    }

    /// GET /timeline?count=N, decoded. A cancelled `cancelToken` stops the wait (and the request).
    public func timeline(count: Int, cancelToken: CancelToken? = nil) throws(FetchError) -> [TimelineEntry] {
        let url = endpoint.url("/timeline?count=\(count)")
        let data = try fetcher.fetchBlocking(url, cancelToken: cancelToken)
        do { return try JSONDecoder().decode([TimelineEntry].self, from: data) } catch {
            throw .malformed(localized("not the timeline's JSON (%@)", "\(error)"), url: url.absoluteString)
        }
    }

    /// The user's icon, from the URL the timeline gave.
    public func icon(for entry: TimelineEntry, cancelToken: CancelToken? = nil) throws(FetchError) -> [UInt8] {
        guard let url = URL(string: entry.user.profileImageURL) else { throw .badURL(entry.user.profileImageURL) }
        return Array(try fetcher.fetchBlocking(endpoint.withKnobs(url), cancelToken: cancelToken))
    }
}
