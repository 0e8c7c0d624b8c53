import Foundation

/// The client side of the fixture API's timeline, in the articles' synchronous style:
/// each call waits for its answer on the calling thread. Which thread that is, is the lesson.
public struct TimelineClient: Sendable {
    public let endpoint: FixtureEndpoint
    public let fetcher: HTTPFetcher

    public init(endpoint: FixtureEndpoint, fetcher: HTTPFetcher = HTTPFetcher()) {
        self.endpoint = endpoint
        self.fetcher = fetcher
    }

    public enum Failure: Error, CustomStringConvertible {
        case fetch(FetchError)
        case malformed(String)
        public var description: String {
            switch self {
            case .fetch(let error): error.description
            case .malformed(let why): "the timeline is not the JSON we expected: \(why)"
            }
        }
    }

    /// GET /timeline?count=N, decoded.
    public func timeline(count: Int) throws -> [TimelineEntry] {
        let data: Data
        do { data = try fetcher.fetchBlocking(endpoint.url("/timeline?count=\(count)")) } catch { throw Failure.fetch(error) }
        do { return try JSONDecoder().decode([TimelineEntry].self, from: data) } catch {
            throw Failure.malformed(String(describing: error))
        }
    }

    /// The user's icon, from the URL the timeline gave.
    public func icon(for entry: TimelineEntry) throws -> [UInt8] {
        guard let url = URL(string: entry.user.profileImageURL) else {
            throw Failure.fetch(.badURL(entry.user.profileImageURL))
        }
        do { return Array(try fetcher.fetchBlocking(endpoint.withKnobs(url))) } catch { throw Failure.fetch(error) }
    }
}
