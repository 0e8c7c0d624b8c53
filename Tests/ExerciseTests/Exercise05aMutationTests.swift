import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 05a's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's passes.
final class Exercise05aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let id = "05a"
    static let sharedCheck = "20 calls at once for one image send one request"
    static let staleCheck = "a stale image is revalidated: If-None-Match, a 304, the same bytes"
    static let restartCheck = "a 304 starts max-age again"
    static let failureCheck = "a failed request is not kept: the next call asks again"

    /// Freshness and revalidation right, but no request in flight looked up: every caller that
    /// comes while one waits sends its own (the actor's reentrancy).
    func testNoSharedRequestIsCaught() throws {
        let unshared = try changed(
            Self.id, .solution, "        if let request = inFlight[url] { return try await request.value }\n", "")
        let passed = checked(Self.id, unshared)
        XCTAssertEqual(passed[Self.sharedCheck], false)
        XCTAssertEqual(passed["a fresh image costs no request"], true)
        XCTAssertEqual(passed[Self.staleCheck], true)
        XCTAssertEqual(passed[Self.restartCheck], true)
        XCTAssertEqual(passed["different images are fetched at the same time"], true)
        XCTAssertEqual(passed[Self.failureCheck], true)
    }

    /// A 304 that keeps the body but not the time it was confirmed: every later call asks again.
    func testA304ThatDoesNotRestartMaxAgeIsCaught() throws {
        let notRestarted = try changed(Self.id, .solution, "            kept.storedAt = now()\n", "")
        let passed = checked(Self.id, notRestarted)
        XCTAssertEqual(passed[Self.restartCheck], false)
        XCTAssertEqual(passed[Self.staleCheck], true)
        XCTAssertEqual(passed[Self.sharedCheck], true)
    }

    /// The request in flight forgotten only when it succeeds: a failure is served again.
    func testAFailedRequestKeptInFlightIsCaught() throws {
        let keepsFailures = try changed(
            Self.id, .solution,
            """
                    defer { inFlight[url] = nil }
                    return try await request.value
            """,
            """
                    let data = try await request.value
                    inFlight[url] = nil
                    return data
            """)
        let passed = checked(Self.id, keepsFailures)
        XCTAssertEqual(passed[Self.failureCheck], false)
        XCTAssertEqual(passed[Self.sharedCheck], true)
        XCTAssertEqual(passed[Self.staleCheck], true)
    }

    /// Another fix: the request runs in a detached task (off the actor) that makes the whole
    /// `CachedResponse`, and the call that started it stores it after the `await`.
    func testADetachedRequestStoredByItsCallerPassesToo() {
        let detached = """
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
            """
        XCTAssertEqual(Set(checked(Self.id, detached).values), [true])
    }
}
