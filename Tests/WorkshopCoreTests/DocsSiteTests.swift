import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// `fixture-server --docs`: the tutorials' folder as static files at /docs/, and nothing beside it.
@Suite("Docs site")
struct DocsSiteTests {
    /// A folder as `workshop docs` leaves it (an index, an archive's page, its style), and a
    /// secret file beside it that no request may reach.
    static func site() throws -> (root: URL, site: DocsSite) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("docs-site-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("docs")
        let page = folder.appendingPathComponent("en/tutorials/sakusaku/lesson03")
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("en/css"), withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><a href=\"/docs/en/\">en</a>".utf8).write(
            to: folder.appendingPathComponent("index.html"))
        try Data("<!doctype html>lesson 03".utf8).write(to: page.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: folder.appendingPathComponent("en/css/index.css"))
        try Data("secret".utf8).write(to: root.appendingPathComponent("secret.txt"))
        return (root, DocsSite(folder: folder))
    }

    static func request(_ path: String, method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: [:], headers: [:], body: [])
    }

    @Test("serves the index, a page by its folder, and a file with its content type, over a real socket")
    func servesFiles() throws {
        let (root, site) = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = FixtureServer(ownRoutes: site.routes)
        try server.start()
        defer { server.stop() }
        let index = try RawHTTP.get(port: server.port, path: "/docs/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(String(decoding: index.body, as: UTF8.self).contains("/docs/en/"))
        let page = try RawHTTP.get(port: server.port, path: "/docs/en/tutorials/sakusaku/lesson03")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self) == "<!doctype html>lesson 03")
        let style = try RawHTTP.get(port: server.port, path: "/docs/en/css/index.css")
        #expect(style.headers["content-type"] == "text/css; charset=utf-8")
        #expect(try RawHTTP.get(port: server.port, path: "/docs/en/missing.js").status == 404)
        #expect(try RawHTTP.get(port: server.port, path: "/docs").status == 301)
        // The lesson API is still there beside it.
        #expect(try RawHTTP.get(port: server.port, path: "/health").status == 200)
    }

    @Test("refuses .. however it is written, and never reads outside the folder")
    func refusesTraversal() throws {
        let (root, site) = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        for path in [
            "/docs/../secret.txt", "/docs/en/../../secret.txt", "/docs/./index.html",
            "/docs/en/%2e%2e/%2e%2e/secret.txt",
        ] {
            let parsed = try #require(HTTPRequest.parseHead("GET \(path) HTTP/1.1\r\nHost: x\r\n"))
            let answer = site.answer(parsed)
            #expect(answer.status == 400, "\(path)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret"), "\(path)")
        }
        // Over the socket too: the request line reaches the server as written.
        let server = FixtureServer(ownRoutes: site.routes)
        try server.start()
        defer { server.stop() }
        #expect(try RawHTTP.get(port: server.port, path: "/docs/../secret.txt").status == 400)
    }

    @Test("a symbolic link out of the folder is not followed")
    func refusesLinksOut() throws {
        let (root, site) = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            at: site.folder.appendingPathComponent("en/leak.txt"),
            withDestinationURL: root.appendingPathComponent("secret.txt"))
        #expect(site.answer(Self.request("/docs/en/leak.txt")).status == 404)
    }

    @Test("only GET and HEAD; the content types DocC's files need")
    func methodsAndTypes() throws {
        let (root, site) = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(site.answer(Self.request("/docs/", method: "POST")).status == 405)
        #expect(site.answer(Self.request("/docs/", method: "HEAD")).status == 200)
        let types = [
            "html": "text/html", "css": "text/css", "js": "text/javascript", "json": "application/json",
            "svg": "image/svg+xml", "png": "image/png", "woff": "font/woff", "woff2": "font/woff2",
        ]
        for (pathExtension, type) in types { #expect(DocsSite.contentType(of: pathExtension).hasPrefix(type)) }
    }
}
