import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// A server on a free port, stopped when the test is done.
func withServer<T>(_ knobs: ServerKnobs = ServerKnobs(), _ body: (FixtureServer) throws -> T) throws -> T {
    let server = FixtureServer(knobs: knobs)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

func timed<T>(_ work: () throws -> T) rethrows -> (T, Double) {
    let clock = Stopwatch()
    let value = try work()
    return (value, clock.elapsed)
}

@Suite("Fixture server")
struct FixtureServerTests {
    @Test("listens on 127.0.0.1 only")
    func loopbackOnly() throws {
        try withServer { server throws in
            #expect(server.boundAddress == "127.0.0.1")
            #expect(server.baseURL.host == "127.0.0.1")
            // 127.0.0.2 is loopback too, but the socket is bound to .1 alone: refused.
            #expect(throws: RawHTTP.Failure.self) {
                try RawHTTP.get(host: "127.0.0.2", port: server.port, path: "/health", timeout: 2)
            }
            #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
        }
    }

    /// Decided by what load cannot do: make an answer come sooner. The server's latency (0.3 s)
    /// holds an answer back at least that long; on a server whose latency (30 s) is three times
    /// what the client waits (10 s), `?latency=0.3` is answered no sooner than 0.3 s and
    /// `?latency=0` is answered at all, which only the query's latency taking the server's place
    /// allows. (Compared with each other, 0.3 s against "at once", load once made "at once" a
    /// third of 0.3 s.)
    @Test("latency is added before each response, the query's in place of the server's")
    func latency() throws {
        try withServer(ServerKnobs(latencySeconds: 0.3)) { server throws in
            let (_, seconds) = try timed { try RawHTTP.get(port: server.port, path: "/health") }
            #expect(seconds >= 0.3, "the server's latency 0.3 s: answered after \(seconds) s")
        }
        try withServer(ServerKnobs(latencySeconds: 30)) { server throws in
            let (_, seconds) = try timed { try RawHTTP.get(port: server.port, path: "/health?latency=0.3") }
            #expect(seconds >= 0.3, "latency=0.3: answered after \(seconds) s")
            #expect(try RawHTTP.get(port: server.port, path: "/health?latency=0", timeout: 10).status == 200)
        }
    }

    /// Decided, as `latency`, by what load cannot do: send a paced body sooner. On a server whose
    /// bandwidth (100 B/s) would take 100 s for the body, `?bandwidth=20000` takes no less than
    /// that rate allows and `?bandwidth=0` (unlimited) is answered within the client's 10 s, which
    /// only the query's bandwidth taking the server's place allows. (An upper bound, or "paced
    /// is four times unpaced", is a wall clock that load stretches.)
    @Test("bandwidth paces the body, the query's in place of the server's")
    func bandwidth() throws {
        try withServer(ServerKnobs(bandwidthBytesPerSecond: 100)) { server throws in
            // 50 icons' worth of timeline JSON is about 10 KB; at 20,000 B/s that is about 0.5 s.
            let (limited, slow) = try timed {
                try RawHTTP.get(port: server.port, path: "/timeline?count=50&bandwidth=20000&gzip=0", timeout: 10)
            }
            let expected = Double(limited.body.count) / 20_000
            #expect(limited.body.count > 5_000)
            #expect(slow >= 0.8 * expected, "\(limited.body.count) B took \(slow) s at 20,000 B/s")
            let unlimited = try RawHTTP.get(
                port: server.port, path: "/timeline?count=50&bandwidth=0&gzip=0", timeout: 10)
            #expect(unlimited.body.count == limited.body.count)
        }
    }

    @Test("gzip only when the client accepts it, and the body decodes to the same bytes")
    func gzipNegotiation() throws {
        try withServer { server throws in
            let plain = try RawHTTP.get(port: server.port, path: "/timeline?count=40")
            let zipped = try RawHTTP.get(
                port: server.port, path: "/timeline?count=40",
                headers: ["Accept-Encoding": "gzip"])
            let refused = try RawHTTP.get(
                port: server.port, path: "/timeline?count=40",
                headers: ["Accept-Encoding": "gzip;q=0, identity"])
            #expect(plain.headers["content-encoding"] == nil)
            #expect(refused.headers["content-encoding"] == nil)
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(try Gzip.decompress(zipped.body) == plain.body)
            #expect(zipped.body.count < plain.body.count / 3)
            // The server counts a response once its write has returned, a moment after the client has it.
            #expect(server.waitForStats(timeout: 10) { $0.responses >= 3 })
            #expect(server.stats.gzipResponses == 1)
            // Counted on the server = read by the client, byte for byte.
            #expect(server.stats.wireBytes == plain.wireBytes + zipped.wireBytes + refused.wireBytes)
        }
    }

    @Test("ETag and If-None-Match give 304 Not Modified")
    func revalidation() throws {
        try withServer(ServerKnobs(maxAgeSeconds: 60)) { server throws in
            let first = try RawHTTP.get(port: server.port, path: "/timeline?count=3")
            let etag = try #require(first.headers["etag"])
            #expect(first.headers["cache-control"] == "max-age=60")
            let second = try RawHTTP.get(port: server.port, path: "/timeline?count=3", headers: ["If-None-Match": etag])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            let stale = try RawHTTP.get(
                port: server.port, path: "/timeline?count=3", headers: ["If-None-Match": "\"old\""])
            #expect(stale.status == 200)
            #expect(stale.body == first.body)
            #expect(server.waitForStats(timeout: 10) { $0.responses >= 3 })
            #expect(server.stats.notModified == 1)
        }
    }

    @Test("unknown routes answer 404, and a request that is not HTTP gets 400")
    func notFound() throws {
        try withServer { server throws in
            #expect(try RawHTTP.get(port: server.port, path: "/nope").status == 404)
            #expect(try RawHTTP.get(port: server.port, path: "/icons/x.gif").status == 404)
        }
    }
}

@Suite("Fixture server faults")
struct FaultTests {
    @Test("fault=500 gives the status, and the fetcher says so")
    func status() throws {
        try withServer { server throws in
            #expect(try RawHTTP.get(port: server.port, path: "/timeline?fault=500").status == 500)
            #expect(try RawHTTP.get(port: server.port, path: "/timeline?fault=503").status == 503)
            let fetcher = HTTPFetcher(timeout: 5)
            #expect(throws: FetchError.httpStatus(500, url: server.baseURL.absoluteString + "/timeline?fault=500")) {
                try fetcher.fetchBlocking(URL(string: server.baseURL.absoluteString + "/timeline?fault=500")!)
            }
        }
    }

    @Test("fault=drop cuts the body and the connection")
    func drop() throws {
        try withServer { server throws in
            let raw = try RawHTTP.get(port: server.port, path: "/timeline?count=30&fault=drop&gzip=0")
            #expect(raw.truncated)
            let url = URL(string: server.baseURL.absoluteString + "/timeline?count=30&fault=drop")!
            do {
                _ = try HTTPFetcher(timeout: 5).fetchBlocking(url)
                Issue.record("a dropped connection must not look like a success")
            } catch let error as FetchError {
                guard case .transport = error else {
                    Issue.record("expected a transport error, got \(error)")
                    return
                }
            }
        }
    }

    @Test("fault=stall ends in the client's timeout, and stop() does not wait for it")
    func stall() throws {
        let server = FixtureServer()
        try server.start()
        let url = URL(string: server.baseURL.absoluteString + "/timeline?fault=stall")!
        let (result, seconds) = timed {
            Result<Data, FetchError> { () throws(FetchError) in try HTTPFetcher(timeout: 1).fetchBlocking(url) }
        }
        guard case .failure(.timedOut) = result else {
            Issue.record("expected a timeout, got \(result)")
            server.stop()
            return
        }
        #expect(seconds < 5)
        // A second stalled request still open while we stop: stop must return promptly.
        let pending = Thread { _ = try? RawHTTP.get(port: server.port, path: "/health?fault=stall", timeout: 10) }
        pending.start()
        let (_, stopSeconds) = timed { server.stop(timeout: 5) }
        #expect(stopSeconds < 2)
    }

    @Test("corrupt and truncated gzip give a clear error, not a crash")
    func badGzip() throws {
        try withServer { server throws in
            let corrupt = try RawHTTP.get(port: server.port, path: "/timeline?count=20&fault=corrupt-gzip")
            #expect(corrupt.headers["content-encoding"] == "gzip")
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(corrupt.body) }
            let truncated = try RawHTTP.get(port: server.port, path: "/timeline?count=20&fault=truncated-gzip")
            do {
                _ = try Gzip.decompress(truncated.body)
                Issue.record("a truncated gzip body must not decode")
            } catch {
                #expect("\(error)".contains("truncated"))
            }
            // URLSession (libcurl) refuses the corrupt body too, as an error.
            let url = URL(string: server.baseURL.absoluteString + "/timeline?count=20&fault=corrupt-gzip")!
            #expect(throws: FetchError.self) { try HTTPFetcher(timeout: 5).fetchBlocking(url) }
        }
    }

    @Test("a bad URL is refused before any request")
    func badURL() {
        #expect(throws: FetchError.badURL("ftp://example")) { try HTTPFetcher.url("ftp://example") }
        #expect(throws: FetchError.badURL("not a url")) { try HTTPFetcher.url("not a url") }
    }
}
