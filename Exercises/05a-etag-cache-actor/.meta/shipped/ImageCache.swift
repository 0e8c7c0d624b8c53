// Exercise 05a: a cache actor that asks the server only when it must, and once per image however many callers wait.
// Check it: swift run workshop check 05a
import ExerciseChecks
import Foundation
import Lesson05Kit

/// Keeps images in memory the way lesson 05 keeps responses on disk: each with its ETag,
/// its max-age and when it came (`CachedResponse`, lesson 05's). It is an actor, so no two calls
/// touch `stored` at the same time. As shipped it keeps every image but never uses one: each
/// call downloads, and 20 calls at once for one image send 20 requests.
public actor ImageCache {
    private let client: ImageClient
    /// The wall clock, injected (as `RevalidatingFetcher` takes it) so a check can play "two
    /// minutes later" without waiting for them.
    private let now: @Sendable () -> Date
    /// The last answer for each URL, with what HTTP said about reusing it.
    private var stored: [URL: CachedResponse] = [:]

    public init(client: ImageClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// The bytes at `url`: from the cache when they may be used, else from the server.
    public func data(for url: URL) async throws -> Data {
        // TODO(1): an answer still within its max-age needs no request at all: return its body.
        // TODO(2): a stale one with an ETag is not thrown away: ask "changed?" with If-None-Match.
        // TODO(3): while this call waits for the server, the actor runs the other calls: each one
        // finds no request in flight and sends its own. Callers of one URL must share one request.
        let response = try await client.get(url)
        // TODO(4): a 304 has no body: the stored one is still good (and its max-age starts again).
        stored[url] = CachedResponse(
            etag: response.etag, maxAgeSeconds: response.maxAgeSeconds, storedAt: now(),
            body: Array(response.body))
        return response.body
    }
}
