import Foundation
import WorkshopCore

/// The lessons' DocC tutorials, served as static files at `/docs/` (`fixture-server --docs`):
/// the folder `swift run workshop docs` builds, `/docs/en/...` and `/docs/ja/...` its two
/// archives, `/docs/` its index page.
///
/// Served as the server's own pages (`FixtureServer(ownRoutes:)`), like the board: the lesson
/// API's latency, bandwidth and faults never slow or break the room's reading. Only GET and
/// HEAD; a path with a `..` (or `.`) segment is refused before the disk is asked, so nothing
/// outside the folder can be read; a folder's `index.html` answers for the folder.
public struct DocsSite: Sendable {
    /// The folder served: `index.html`, `en/`, `ja/`.
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    public var routes: [(prefix: String, route: FixtureServer.Route)] {
        [("/docs", { [self] request, _ in answer(request) })]
    }

    /// The answer to one request under /docs.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard request.path == "/docs" || request.path.hasPrefix("/docs/") else {
            return Self.plain(404, "no such page: \(request.path)")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return Self.plain(405, "use GET") }
        if request.path == "/docs" {
            var moved = Self.plain(301, "see /docs/")
            moved.headers.append(("Location", "/docs/"))
            return moved
        }
        let segments = request.path.dropFirst("/docs/".count).split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\0") || $0.contains("\\") }) else {
            return Self.plain(400, "a path with .. or . segments is refused")
        }
        var file = segments.reduce(folder) { $0.appendingPathComponent(String($1)) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
            file = file.appendingPathComponent("index.html")
        }
        // The segments cannot climb, but a symbolic link could point anywhere: the file's real
        // place must still be inside the folder.
        let real = file.resolvingSymlinksInPath().path
        let top = folder.resolvingSymlinksInPath().path
        guard real.hasPrefix(top + "/"), let body = FileManager.default.contents(atPath: real) else {
            return Self.plain(404, "no such file: \(request.path)")
        }
        return HTTPResponse(
            contentType: Self.contentType(of: file.pathExtension), body: Array(body), compressible: false,
            headers: [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")])
    }

    /// The content type of a file DocC writes, by its extension.
    static func contentType(of pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "ico": "image/x-icon"
        case "woff": "font/woff"
        case "woff2": "font/woff2"
        case "txt", "swift": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    static func plain(_ status: Int, _ message: String) -> HTTPResponse {
        var response = HTTPResponse.text(status, message)
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
