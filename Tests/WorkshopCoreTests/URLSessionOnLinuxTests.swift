import Foundation
import Testing
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `Lessons/linux-notes.md` says about URLSession's cache and its cancel, measured against
/// the fixture server. The corelibs source (swift-corelibs-foundation at swift-6.3.1-RELEASE)
/// says why: `_HTTPURLProtocol` hands every response to the task with `cacheStoragePolicy:
/// .notAllowed` (HTTPURLProtocol.swift:539, :716), so `URLSessionTask`'s `completeTask` has
/// nothing to store; `canRespondFromCache` serves an entry only while `canCache` accepts it
/// (fresh, no `Vary`) and removes it otherwise; nothing in FoundationNetworking writes
/// `If-None-Match`; and `data(for:)` cancels with `URLSessionTask.cancel()`, whose error is
/// `URLError(.cancelled)` (URLSession.swift:735-753).
@Suite("URLSession on Linux: its cache and its cancel")
struct URLSessionOnLinuxTests {
    /// Numbers its answers ("answer 1", "answer 2", ...), so a body tells whether it came from
    /// the server or from a cache, and remembers the `If-None-Match` of every request.
    final class CountedRoute: Sendable {
        let headers: [(String, String)]
        private let seen = Locked<[String?]>([])

        init(headers: [(String, String)]) { self.headers = headers }

        var ifNoneMatch: [String?] { seen.current }

        var route: FixtureServer.Route {
            { request, _ in
                let number = self.seen.withLock { seen in
                    seen.append(request.header("if-none-match"))
                    return seen.count
                }
                return HTTPResponse(
                    contentType: "text/plain; charset=utf-8", body: Array("answer \(number)".utf8),
                    headers: self.headers)
            }
        }
    }

    /// A session with a memory cache of 4 MB (the size `URLCache.shared` has), none on disk.
    struct CachingClient {
        let cache = URLCache(memoryCapacity: 4 * 1024 * 1024, diskCapacity: 0, diskPath: nil)
        let session: URLSession

        init() {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = cache
            configuration.timeoutIntervalForRequest = 30
            session = URLSession(configuration: configuration)
        }

        func get(_ request: URLRequest) async throws -> (body: String, response: HTTPURLResponse) {
            let (data, response) = try await session.data(for: request)
            return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
        }

        /// Puts an answer into the cache by hand, as `storeCachedResponse` lets an app do.
        func store(_ answer: (body: String, response: HTTPURLResponse), for request: URLRequest) {
            cache.storeCachedResponse(
                CachedURLResponse(response: answer.response, data: Data(answer.body.utf8)), for: request)
        }
    }

    /// The fixture server with one extra route, `/counted`. `gzip` on, as in the lessons, adds
    /// `Content-Encoding: gzip` and `Vary: Accept-Encoding`; the server adds an ETag to every 200.
    private func withCountedServer<T>(
        gzip: Bool, headers: [(String, String)],
        _ body: (FixtureServer, CountedRoute, URLRequest) async throws -> T
    ) async throws -> T {
        let counted = CountedRoute(headers: headers)
        let server = FixtureServer(
            knobs: ServerKnobs(gzip: gzip), routes: [("/counted", counted.route)] + FixtureAPI.routes)
        let base = try server.start()
        defer { server.stop() }
        return try await body(server, counted, URLRequest(url: base.appendingPathComponent("counted")))
    }

    /// Waits on a thread of its own (the server's wait blocks it; the task pool is not to be
    /// blocked) until the server's counters satisfy `condition`, or 120 s: it takes milliseconds,
    /// but on a loaded machine the tests of one process have waited 100 s for the task pool.
    /// (The client has its answer a moment before the server thread that sent it counts it.)
    private func server(_ server: FixtureServer, reaches condition: @escaping @Sendable (ServerStats) -> Bool) async
        -> Bool
    {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: server.waitForStats(timeout: 120, until: condition)) }.start()
        }
    }

    @Test("URLSession stores no HTTP response in its URLCache, even a fresh one without Vary")
    func theSessionStoresNothing() async throws {
        try await withCountedServer(gzip: false, headers: [("Cache-Control", "max-age=60")]) {
            server, counted, request in
            let client = CachingClient()
            defer { client.session.invalidateAndCancel() }
            let first = try await client.get(request)
            #expect(first.body == "answer 1")
            #expect(first.response.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
            #expect(first.response.value(forHTTPHeaderField: "ETag") != nil)
            #expect(first.response.value(forHTTPHeaderField: "Vary") == nil)
            // `completeTask` stores before it calls the completion: nothing is there.
            #expect(client.cache.cachedResponse(for: request) == nil)

            let second = try await client.get(request)
            #expect(second.body == "answer 2", "the second request reached the server")
            #expect(server.stats.requestsByPath["/counted"] == 2)
            #expect(client.cache.cachedResponse(for: request) == nil)
            #expect(counted.ifNoneMatch == [nil, nil])
        }
    }

    @Test("a fresh response without Vary, stored by hand, is served without asking the server")
    func aStoredFreshResponseIsServed() async throws {
        try await withCountedServer(gzip: false, headers: [("Cache-Control", "max-age=60")]) {
            server, _, request in
            let client = CachingClient()
            defer { client.session.invalidateAndCancel() }
            client.store(try await client.get(request), for: request)
            #expect(client.cache.cachedResponse(for: request) != nil)

            let again = try await client.get(request)
            #expect(again.body == "answer 1", "served from the cache")
            #expect(again.response.statusCode == 200)
            #expect(server.stats.requestsByPath["/counted"] == 1)
        }
    }

    @Test("a stored response with Vary (every gzip answer of the fixture server) is dropped and fetched again")
    func aStoredResponseWithVaryIsDropped() async throws {
        try await withCountedServer(gzip: true, headers: [("Cache-Control", "max-age=60")]) {
            server, _, request in
            let client = CachingClient()
            defer { client.session.invalidateAndCancel() }
            let first = try await client.get(request)
            #expect(first.response.value(forHTTPHeaderField: "Vary") == "Accept-Encoding")
            #expect(first.response.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
            client.store(first, for: request)
            #expect(client.cache.cachedResponse(for: request) != nil)

            let again = try await client.get(request)
            #expect(again.body == "answer 2", "the server was asked again")
            #expect(server.stats.requestsByPath["/counted"] == 2)
            #expect(client.cache.cachedResponse(for: request) == nil, "the entry was removed")
        }
    }

    @Test("a stale response with an ETag is fetched again with a plain GET: no If-None-Match")
    func aStaleResponseIsNotRevalidated() async throws {
        try await withCountedServer(gzip: false, headers: [("Cache-Control", "max-age=0"), ("ETag", "\"v1\"")]) {
            server, counted, request in
            let client = CachingClient()
            defer { client.session.invalidateAndCancel() }
            let first = try await client.get(request)
            #expect(first.response.value(forHTTPHeaderField: "ETag") == "\"v1\"")
            client.store(first, for: request)

            let again = try await client.get(request)
            #expect(again.body == "answer 2")
            #expect(again.response.statusCode == 200)
            #expect(counted.ifNoneMatch == [nil, nil], "URLSession sent no If-None-Match")
            #expect(server.stats.notModified == 0)
            #expect(client.cache.cachedResponse(for: request) == nil, "the stale entry was removed")

            // The server would have answered 304: it does when the header is sent by hand.
            var conditional = request
            conditional.setValue("\"v1\"", forHTTPHeaderField: "If-None-Match")
            let revalidated = try await client.get(conditional)
            #expect(revalidated.response.statusCode == 304)
            #expect(counted.ifNoneMatch.last == "\"v1\"")
            #expect(await self.server(server, reaches: { $0.notModified == 1 }))
        }
    }

    /// A session with no cache (as the workshop's sessions are made) and a server that sends the
    /// headers and then nothing until it stops (`fault=stall`), so only the cancel ends the request.
    private func withStallingServer<T>(_ body: (FixtureServer, URLSession, URLRequest) async throws -> T) async throws
        -> T
    {
        let server = FixtureServer(knobs: ServerKnobs())
        let base = try server.start()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 900
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        return try await body(
            server, session, URLRequest(url: URL(string: base.absoluteString + "/timeline?fault=stall")!))
    }

    @Test("a cancelled data(for:) throws URLError(.cancelled), not CancellationError")
    func aCancelledRequestThrowsURLErrorCancelled() async throws {
        try await withStallingServer { server, session, request in
            let fetch = Task { try await session.data(for: request) }
            let arrived = await self.server(server, reaches: { $0.requestsByPath["/timeline", default: 0] >= 1 })
            #expect(arrived, "the request reached the server")
            fetch.cancel()
            let error = await #expect(throws: URLError.self) { try await fetch.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test("data(for:) in a task cancelled before it asks throws URLError(.cancelled) too")
    func anAlreadyCancelledTaskGetsURLErrorCancelled() async throws {
        try await withStallingServer { _, session, request in
            let fetch = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await session.data(for: request)
            }
            let error = await #expect(throws: URLError.self) { try await fetch.value }
            #expect(error?.code == .cancelled)
        }
    }
}
