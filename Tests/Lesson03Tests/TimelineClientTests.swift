import Lesson03Kit
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopServer

/// The timeline client against the fixture server's timeline routes.
@Suite("TimelineClient")
struct TimelineClientTests {
    @Test("reads the timeline and icons the server serves")
    func timelineAndIcons() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = TimelineClient(endpoint: server.endpoint)
        let entries = try client.timeline(count: 5)
        #expect(entries == FixtureAPI.timeline(count: 5, baseURL: server.endpoint.baseURL.absoluteString))
        let icon = try client.icon(for: entries[0])
        #expect(icon == FixtureAPI.icon(for: entries[0].user.name))
        #expect(Array(icon.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(server.endpoint.requestsServed == 2)
    }

    @Test("half a JSON document is a malformed body, not a short timeline")
    func malformed() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.server.setFault(.malformed, forPathPrefix: "/timeline")
        let client = TimelineClient(endpoint: server.endpoint)
        #expect {
            _ = try client.timeline(count: 10)
        } throws: { error in
            guard case .malformed(_, let url)? = error as? FetchError else { return false }
            return url.contains("/timeline")
        }
        server.server.setFault(nil, forPathPrefix: "/timeline")
        #expect(try client.timeline(count: 10).count == 10)
    }

    @Test("a server that never answers is a timeout that says so and names the URL")
    func stall() throws {
        let server = try TestServer(timeout: 0.5)
        defer { server.stop() }
        server.server.setFault(.stall, forPathPrefix: "/timeline")
        #expect {
            _ = try TimelineClient(endpoint: server.endpoint).timeline(count: 3)
        } throws: { error in
            "\(error)".hasPrefix("timed out after 0.5 s waiting for http://127.0.0.1:")
        }
    }
}
