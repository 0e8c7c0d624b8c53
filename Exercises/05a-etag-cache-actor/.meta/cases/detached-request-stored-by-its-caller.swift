import ExerciseChecks
import Foundation
import Lesson05Kit

public actor ImageCache {
    private let client: ImageClient
    private let now: @Sendable () -> Date
    private var stored: [URL: CachedResponse] = [:]
    private var inFlight: [URL: Task<CachedResponse, any Error>] = [:]

    public init(client: ImageClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    public func data(for url: URL) async throws -> Data {
        let kept = stored[url]
        if let kept, kept.isFresh(at: now()) { return Data(kept.body) }
        if let request = inFlight[url] { return Data(try await request.value.body) }
        let request = Task.detached { [client, now] () async throws -> CachedResponse in
            let response = try await client.get(url, ifNoneMatch: kept?.etag)
            if response.notModified, var kept {
                kept.storedAt = now()
                return kept
            }
            return CachedResponse(
                etag: response.etag, maxAgeSeconds: response.maxAgeSeconds, storedAt: now(),
                body: Array(response.body))
        }
        inFlight[url] = request
        do {
            let answer = try await request.value
            inFlight[url] = nil
            stored[url] = answer
            return Data(answer.body)
        } catch {
            inFlight[url] = nil
            throw error
        }
    }
}
