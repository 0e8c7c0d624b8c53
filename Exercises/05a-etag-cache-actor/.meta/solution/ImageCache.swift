// Exercise 05a: a cache actor that asks the server only when it must, and once per image however many callers wait.
// Check it: swift run workshop check 05a
import ExerciseChecks
import Foundation
import Lesson05Kit

/// Keeps images in memory the way lesson 05 keeps responses on disk: each with its ETag,
/// its max-age and when it came (`CachedResponse`, lesson 05's). It is an actor, so no two calls
/// touch `stored` or `inFlight` at the same time; and since it is reentrant (other calls run
/// while one awaits), a request in flight is remembered too, before the first `await`.
public actor ImageCache {
    private let client: ImageClient
    /// The wall clock, injected (as `RevalidatingFetcher` takes it) so a check can play "two
    /// minutes later" without waiting for them.
    private let now: @Sendable () -> Date
    /// The last answer for each URL, with what HTTP said about reusing it.
    private var stored: [URL: CachedResponse] = [:]
    /// The request in flight for each URL. Stored before the first `await`, so a call that runs
    /// while it waits finds it and waits for it instead of sending its own. Removed once it has
    /// ended, so a failure is never kept: the next call sends a new request.
    private var inFlight: [URL: Task<Data, any Error>] = [:]

    public init(client: ImageClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// The bytes at `url`: from the cache when they may be used, else from the server.
    public func data(for url: URL) async throws -> Data {
        let kept = stored[url]
        if let kept, kept.isFresh(at: now()) { return Data(kept.body) }
        if let request = inFlight[url] { return try await request.value }
        // A Task made here runs on this actor: `fetch` may store what it gets.
        let request = Task { try await fetch(url, revalidating: kept) }
        inFlight[url] = request
        // Runs after the `await` below, on the actor: this call's request has ended either way.
        defer { inFlight[url] = nil }
        return try await request.value
    }

    /// One request for `url`: "changed?" when a stored answer has an ETag, else a download.
    private func fetch(_ url: URL, revalidating kept: CachedResponse?) async throws -> Data {
        let response = try await client.get(url, ifNoneMatch: kept?.etag)
        if response.notModified, var kept {
            // Still good: keep the body, start its max-age again, take any new validator.
            kept.storedAt = now()
            kept.maxAgeSeconds = response.maxAgeSeconds ?? kept.maxAgeSeconds
            kept.etag = response.etag ?? kept.etag
            stored[url] = kept
            return Data(kept.body)
        }
        stored[url] = CachedResponse(
            etag: response.etag, maxAgeSeconds: response.maxAgeSeconds, storedAt: now(),
            body: Array(response.body))
        return response.body
    }
}
