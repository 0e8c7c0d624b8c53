import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection to `server` that sends `text` as it is and returns everything until the server
/// closes the connection (each read bounded by `timeout`).
func exchangeRaw(_ server: FixtureServer, _ bytes: [UInt8], timeout: Double = 10) throws -> String {
    let connection = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: timeout)
    defer { connection.close() }
    try connection.send(bytes)
    return String(decoding: try connection.readToEnd(), as: UTF8.self)
}

func exchangeRaw(_ server: FixtureServer, _ text: String, timeout: Double = 10) throws -> String {
    try exchangeRaw(server, Array(text.utf8), timeout: timeout)
}

/// An IPv4 address that is not one of this machine's: from the ranges kept for documentation
/// (RFC 5737), skipping any a test machine happens to use.
func foreignAddress() -> String? {
    let own = Set(HostAddress.interfaceAddresses())
    return ["203.0.113.77", "198.51.100.77", "192.0.2.77"].first { !own.contains($0) }
}

@Suite("Fixture server: server-wide faults")
struct ServerWideFaultTests {
    @Test("a rate hits floor(n x rate) of n requests, evenly, the same ones every time")
    func rateIsDeterministic() {
        for rate in [0, 0.1, 0.25, 0.3, 0.5, 0.75, 0.99, 1] {
            let hits = (1...1000).filter { Fault.hits(requestNumber: $0, rate: rate) }
            #expect(hits.count == Int((1000 * rate).rounded(.down)), "rate \(rate)")
        }
        #expect((1...10).filter { Fault.hits(requestNumber: $0, rate: 0.3) } == [4, 7, 10])
        #expect((1...4).filter { Fault.hits(requestNumber: $0, rate: 0.5) } == [2, 4])
        #expect(!Fault.hits(requestNumber: 0, rate: 1))
    }

    @Test("--fault 500 at 0.3: requests 4, 7 and 10 fail; /health never; fault= wins; fault=none opts out")
    func statusAtARate() throws {
        try withServer(ServerKnobs(fault: .status(500), faultRate: 0.3)) { server throws in
            var statuses: [Int] = []
            for _ in 1...10 {
                statuses.append(try RawHTTP.get(port: server.port, path: "/timeline?count=1").status)
                // Neither of these is hit, and neither moves the count.
                #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
                #expect(try RawHTTP.get(port: server.port, path: "/timeline?count=1&fault=none").status == 200)
            }
            #expect(statuses == [200, 200, 200, 500, 200, 200, 500, 200, 200, 500])
            #expect(try RawHTTP.get(port: server.port, path: "/timeline?fault=503").status == 503)
            #expect(try RawHTTP.get(port: server.port, path: "/health?fault=none").status == 200)
            #expect(server.stats.faulted == 4)
        }
    }

    @Test("every kind the query item knows works as the server-wide fault, and never on /health")
    func everyKind() throws {
        let gzip = ["Accept-Encoding": "gzip"]
        for name in Fault.kindNames {
            let fault = try #require(Fault(name))
            try withServer(ServerKnobs(fault: fault)) { server throws in
                #expect(try RawHTTP.get(port: server.port, path: "/health", headers: gzip).status == 200, "\(name)")
                let path = "/timeline?count=20"
                switch fault {
                case .status(let code):
                    #expect(try RawHTTP.get(port: server.port, path: path, headers: gzip).status == code)
                case .drop:
                    #expect(try RawHTTP.get(port: server.port, path: path + "&gzip=0").truncated)
                case .stall:
                    #expect(throws: RawHTTP.Failure.self) {
                        try RawHTTP.get(port: server.port, path: path, timeout: 0.5)
                    }
                case .corruptGzip, .truncatedGzip:
                    let answer = try RawHTTP.get(port: server.port, path: path, headers: gzip)
                    #expect(answer.headers["content-encoding"] == "gzip")
                    #expect(throws: Gzip.Failure.self, "\(name)") { try Gzip.decompress(answer.body) }
                case .malformed:
                    let answer = try RawHTTP.get(port: server.port, path: path + "&gzip=0")
                    let whole = try RawHTTP.get(port: server.port, path: path + "&gzip=0&fault=none")
                    #expect(answer.status == 200)
                    #expect(answer.body == Array(whole.body.prefix(whole.body.count / 2)))
                case .redirectLoop:
                    let answer = try RawHTTP.get(port: server.port, path: path)
                    #expect(answer.status == 302)
                    #expect(answer.headers["location"] == path, "redirected to the very same URL")
                }
            }
        }
    }
}

@Suite("Fixture server: a server for the room")
struct RoomServerTests {
    @Test("--host 0.0.0.0 listens on every interface; a bad or foreign host and a port in use are refused by name")
    func hosts() throws {
        let server = FixtureServer()
        try server.start(host: "0.0.0.0")
        defer { server.stop() }
        #expect(server.boundAddress == "0.0.0.0")
        #expect(server.baseURL.host == "127.0.0.1")  // what works on this machine
        #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
        if let lan = HostAddress.interfaceAddresses().first {
            #expect(try RawHTTP.get(host: lan, port: server.port, path: "/health").status == 200)
        }

        for bad in ["example.com", "256.1.1.1", "1.2.3", "::1", ""] {
            #expect(HostAddress(bad) == nil, "\(bad)")
            do {
                try FixtureServer().start(host: bad)
                Issue.record("\(bad) should be refused")
            } catch let error as FixtureServer.StartError {
                #expect(error.reason == .badHost)
            }
        }
        #expect(HostAddress("localhost")?.text == "127.0.0.1")
        let foreign = try #require(foreignAddress())
        do {
            try FixtureServer().start(host: foreign)
            Issue.record("\(foreign) is not an address of this machine")
        } catch let error as FixtureServer.StartError {
            #expect(error.reason == .addressNotAvailable)
            #expect(error.description.contains(foreign))
        }
        do {
            try FixtureServer().start(host: "0.0.0.0", port: server.port)
            Issue.record("port \(server.port) is in use")
        } catch let error as FixtureServer.StartError {
            #expect(error.reason == .portInUse)
            #expect(error.description.contains("\(server.port)"))
        }
    }

    @Test("keep-alive: requests one after another and pipelined on one connection; close when asked")
    func keepAlive() throws {
        try withServer { server throws in
            let connection = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
            defer { connection.close() }
            for count in 1...3 {
                let answer = try connection.exchange("GET /timeline?count=\(count) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(answer.status == 200)
                #expect(answer.headers["connection"] == "keep-alive")
                #expect(try JSONDecoder().decode([TimelineEntry].self, from: Data(answer.body)).count == count)
            }
            // Two requests in one write: two answers, in order.
            try connection.send(Array("GET /health HTTP/1.1\r\n\r\nGET /timeline?count=4 HTTP/1.1\r\n\r\n".utf8))
            #expect(try connection.readAnswer().body == Array("ok\n".utf8))
            #expect(try JSONDecoder().decode([TimelineEntry].self, from: Data(connection.readAnswer().body)).count == 4)
            // Connection: close is honoured: the answer, then the end of the connection.
            try connection.send(Array("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(try connection.readAnswer().headers["connection"] == "close")
            #expect(try connection.readToEnd().isEmpty)
            #expect(server.stats.connections == 1)
            #expect(server.stats.requests == 6)

            // HTTP/1.0 closes unless it asks for keep-alive.
            let old = try exchangeRaw(server, "GET /health HTTP/1.0\r\n\r\n")
            #expect(old.hasPrefix("HTTP/1.1 200 OK"))
            #expect(old.contains("Connection: close"))
        }
    }

    @Test("over --max-connections: a quick 503 with Retry-After, and served again once a slot is free")
    func connectionLimit() throws {
        try withServer(ServerKnobs(maxConnections: 2, readTimeoutSeconds: 60)) { server throws in
            // Two silent clients take both slots: the server accepts in order, so the third is over.
            let first = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
            let second = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
            defer { second.close() }
            let busy = try RawHTTP.get(port: server.port, path: "/health")
            #expect(busy.status == 503)
            #expect(busy.headers["retry-after"] == "1")
            #expect(server.stats.rejected == 1)
            first.close()
            #expect(server.waitForStats(timeout: 10) { $0.openConnections == 1 })
            #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
            #expect(server.stats.rejected == 1)
        }
    }

    @Test("silent and dribbling clients are closed after the read timeout; others are served meanwhile")
    func readTimeout() throws {
        let timeout = 0.5
        try withServer(ServerKnobs(readTimeoutSeconds: timeout)) { server throws in
            let silent = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 30)
            defer { silent.close() }
            // The dribbler sends a byte every 50 ms: each read gets something, yet the whole
            // request is never done. It would take 20 s to send everything.
            let dribbled = Locked((sent: 0, answer: ""))
            let dribblerDone = DispatchSemaphore(value: 0)
            let total = 400
            let dribble = Thread {
                defer { dribblerDone.signal() }
                // Its own connection, on its own thread: a connection is used by one thread.
                guard let dribbler = try? HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 30) else {
                    return dribbled.withLock { $0.answer = "could not connect" }
                }
                defer { dribbler.close() }
                let bytes = Array(("GET /health HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: total)).utf8)
                for byte in bytes.prefix(total) {
                    // A slow client, not synchronisation: the server must not wait for it.
                    guard (try? dribbler.send([byte])) != nil else { break }
                    dribbled.withLock { $0.sent += 1 }
                    if server.stats.readTimeouts >= 2 { break }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                let answer = (try? dribbler.readToEnd()) ?? []
                dribbled.withLock { $0.answer = String(decoding: answer, as: UTF8.self) }
            }
            dribble.start()
            for _ in 1...5 {
                #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
            }
            #expect(try silent.readToEnd().isEmpty, "the server closes a silent connection without a word")
            #expect(dribblerDone.wait(timeout: .now() + 30) == .success)
            let (sent, answer) = dribbled.current
            #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout"), "\(answer)")
            #expect(sent < total, "the dribbler was cut off before it finished")
            #expect(server.waitForStats(timeout: 10) { $0.readTimeouts == 2 })
            #expect(server.stats.responses == 5)
        }
    }

    @Test("huge, malformed and chunked requests get 431, 413, 400 and 501, and the server keeps serving")
    func badRequests() throws {
        try withServer { server throws in
            let huge = "GET /health HTTP/1.1\r\nX-Huge: " + String(repeating: "a", count: 100_000) + "\r\n\r\n"
            let cases: [(request: String, status: String)] = [
                (huge, "431 Request Header Fields Too Large"),
                ("GET /" + String(repeating: "x", count: 20_000) + " HTTP/1.1\r\n\r\n", "431"),
                ("POST /health HTTP/1.1\r\nContent-Length: 10000000\r\n\r\n", "413 Content Too Large"),
                ("HELLO\r\n\r\n", "400 Bad Request"),
                ("GET /health HTTP/1.1\r\nContent-Length: ten\r\n\r\n", "400 Bad Request"),
                ("GET /health HTTP/1.1\r\nno colon here\r\n\r\n", "400 Bad Request"),
                ("GET /health HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "501 Not Implemented"),
            ]
            for (request, status) in cases {
                let answer = try exchangeRaw(server, request)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(request.prefix(40)): \(answer.prefix(80))")
                #expect(answer.contains("Connection: close"))
                #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
            }
            #expect(server.stats.badRequests == cases.count)
            // A request typed into nc without -C (bare line feeds) is still a request.
            #expect(try exchangeRaw(server, "GET /health HTTP/1.0\n\n").hasPrefix("HTTP/1.1 200 OK"))
            // A small body within the limit is read, and the connection stays usable.
            let connection = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
            defer { connection.close() }
            #expect(try connection.exchange("POST /health HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").status == 200)
            #expect(try connection.exchange("GET /health HTTP/1.1\r\n\r\n").status == 200)
        }
    }

    @Test("stop() closes silent and kept-alive connections without waiting for the read timeout")
    func stopIsPrompt() throws {
        let knobs = ServerKnobs(readTimeoutSeconds: 60)
        let server = FixtureServer(knobs: knobs)
        try server.start()
        let silent = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 30)
        defer { silent.close() }
        let kept = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 30)
        defer { kept.close() }
        #expect(try kept.exchange("GET /health HTTP/1.1\r\n\r\n").status == 200)
        #expect(server.waitForStats(timeout: 10) { $0.openConnections == 2 })
        let (_, seconds) = timed { server.stop(timeout: 30) }
        #expect(server.stats.openConnections == 0)
        #expect(seconds < knobs.readTimeoutSeconds / 4, "stop took \(seconds) s")
        #expect(try silent.readToEnd().isEmpty)
    }
}
