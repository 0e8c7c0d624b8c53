import Foundation
import Lesson04Kit
import Testing
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What URLSession puts on the wire by itself, seen from the server's side.
@Suite("Accept-Encoding, as URLSession sends it")
struct AcceptEncodingTests {
    /// A server whose one route answers with the request's Accept-Encoding header.
    static func withEchoServer<T>(_ body: (URL) throws -> T) throws -> T {
        let echo: FixtureServer.Route = { request, _ in .text(200, request.header("accept-encoding") ?? "(none)") }
        let server = FixtureServer(routes: [("/echo", echo)])
        let url = try server.start().appendingPathComponent("echo")
        defer { server.stop() }
        return try body(url)
    }

    static func sent(_ request: URLRequest) throws -> String {
        let fetched = Locked<Result<Data, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession(configuration: .ephemeral).dataTask(with: request) { data, _, error in
            fetched.withLock { $0 = error.map { .failure($0) } ?? .success(data ?? Data()) }
            done.signal()
        }.resume()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let data = try #require(try fetched.current?.get())
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a plain request already asks for gzip (the article's one line is done for you)")
    func byDefault() throws {
        let header = try Self.withEchoServer { url in try Self.sent(URLRequest(url: url)) }
        #expect(header.contains("gzip"), "URLSession sent Accept-Encoding: \(header)")
    }

    @Test("setting the header replaces the default, so the lesson can ask for identity")
    func replaced() throws {
        try Self.withEchoServer { url in
            for encoding in Encoding.allCases {
                var request = URLRequest(url: url)
                request.setValue(encoding.rawValue, forHTTPHeaderField: "Accept-Encoding")
                let header = try Self.sent(request)
                #expect(header == encoding.rawValue)
            }
        }
    }
}
