import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// The one HTTP client: its deadlines, its size cap, what it makes of a head, and the plain
/// text a person is shown of an answer. (Hostile boards: BoardWaitTests and the join tests;
/// keep-alive and pipelining: RoomServerTests.)
@Suite("HTTP client")
struct HTTPClientTests {
    static func get(_ server: FixtureServer, _ target: String, limits: HTTPClient.Limits) throws -> HTTPClient.Answer {
        try HTTPClient.request("GET", host: "127.0.0.1", port: server.port, target: target, limits: limits)
    }

    @Test("a whole answer: its status, lower-cased headers, the body by Content-Length, every byte counted")
    func wholeAnswer() throws {
        try withServer { server throws in
            let answer = try Self.get(server, "/timeline?count=3&gzip=0", limits: .within(10))
            #expect(answer.status == 200)
            #expect(answer.ending == .complete)
            #expect(!answer.truncated)
            #expect(answer.headers["content-length"] == "\(answer.body.count)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(answer.wireBytes > answer.body.count)
            #expect(try JSONDecoder().decode([TimelineEntry].self, from: Data(answer.body)).count == 3)
        }
    }

    @Test("no first byte before its deadline: timedOut(firstByte), long before the server would answer")
    func firstByteDeadline() throws {
        try withServer { server throws in
            let limits = HTTPClient.Limits(connectSeconds: 5, firstByteSeconds: 0.3, wholeSeconds: 30)
            let (result, seconds) = timed { Result { try Self.get(server, "/health?latency=20", limits: limits) } }
            #expect(throws: HTTPClient.Failure.timedOut(.firstByte)) { try result.get() }
            #expect(seconds < 10, "it waited \(seconds) s")
        }
    }

    @Test("a head and then nothing: the answer as far as it came, ended by the whole deadline")
    func wholeDeadline() throws {
        try withServer { server throws in
            let limits = HTTPClient.Limits(connectSeconds: 5, firstByteSeconds: 5, wholeSeconds: 0.5)
            let (answer, seconds) = try timed { try Self.get(server, "/timeline?count=5&fault=stall", limits: limits) }
            #expect(answer.status == 200)
            #expect(answer.ending == .deadline)
            #expect(answer.body.isEmpty && answer.truncated)
            #expect(seconds < 10, "it waited \(seconds) s")
            #expect(throws: RawHTTP.Failure.self) {
                try RawHTTP.get(port: server.port, path: "/timeline?fault=stall", timeout: 0.5)
            }
        }
    }

    @Test("no more than maxAnswerBytes is read: the body is cut there, and says so")
    func sizeCap() throws {
        try withServer { server throws in
            let whole = try Self.get(server, "/timeline?count=50&gzip=0", limits: .within(10))
            #expect(whole.body.count > 2000)
            let cut = try Self.get(server, "/timeline?count=50&gzip=0", limits: .within(10, maxAnswerBytes: 1000))
            #expect(cut.ending == .sizeCap)
            #expect(cut.wireBytes <= 1000)
            #expect(cut.truncated)
            #expect(cut.body == Array(whole.body.prefix(cut.body.count)))
            // A head that does not fit is no answer at all.
            #expect(throws: HTTPClient.Failure.notHTTP) {
                try Self.get(server, "/health", limits: .within(10, maxAnswerBytes: 20))
            }
        }
    }

    @Test("a dropped connection: the body as far as it came, ended by the close")
    func dropped() throws {
        try withServer { server throws in
            let answer = try Self.get(server, "/timeline?count=30&fault=drop&gzip=0", limits: .within(10))
            #expect(answer.ending == .closed)
            #expect(answer.truncated)
        }
    }

    @Test("nothing listening: refused, at once")
    func refused() throws {
        let server = FixtureServer()
        try server.start()
        let port = server.port
        server.stop()
        let (result, seconds) = timed { Result { try HTTPConnection(host: "127.0.0.1", port: port, timeout: 5) } }
        #expect(throws: HTTPClient.Failure.refused) { try result.get() }
        #expect(seconds < 5)
    }

    @Test("a head: HTTP/1.x and a status 100-599, or not HTTP; nil until it is complete")
    func head() throws {
        let head = try #require(try HTTPClient.head(of: Array("HTTP/1.1 403 No\r\nX-A:  b \r\n\r\nbody".utf8)[...]))
        #expect(head.status == 403)
        #expect(head.headers == ["x-a": "b"])
        #expect(head.bodyStart == 29)
        #expect(try HTTPClient.head(of: Array("HTTP/1.1 200 OK\r\nX-A: b\r\n".utf8)[...]) == nil)
        for notHTTP in [
            "SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 999 Odd\r\n\r\n", "HTTP/2 200\r\n\r\n", "\u{1B}]0;x\r\n\r\n",
        ] {
            #expect(throws: HTTPClient.Failure.notHTTP, "\(notHTTP.debugDescription)") {
                try HTTPClient.head(of: Array(notHTTP.utf8)[...])
            }
        }
    }

    @Test("what a person is shown: one line, no escape sequence, no control or invisible character, at most so long")
    func plainLine() {
        let hostile = Array(
            ("\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[Hwrong room code\u{1B}[31m!\u{1B}[0m \u{9B}2J\u{202E}reversed"
                + "\u{1B}]8;;http://example.invalid/\u{1B}\\a link\u{1B}]8;;\u{1B}\\\r\nsecond line\n").utf8)
        #expect(HTTPText.plainLine(hostile) == "wrong room code! reverseda link")
        #expect(HTTPText.plainLine(Array("\r\n  \n\u{07}\nfirst words\nmore".utf8)) == "first words")
        #expect(HTTPText.plainLine(Array("\u{1B}[2J\u{200B}".utf8)).isEmpty)
        let long = HTTPText.plainLine(Array(String(repeating: "a", count: 500).utf8), maxCharacters: 10)
        #expect(long == String(repeating: "a", count: 9) + "…")
    }
}
