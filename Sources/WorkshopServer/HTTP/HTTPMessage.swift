import Foundation
import WorkshopCore

/// One HTTP/1.1 request as the fixture server read it off the socket.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query, e.g. "/timeline".
    public var path: String
    public var query: [String: String]
    /// Header names are lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// "HTTP/1.1" or "HTTP/1.0", as the request line said.
    public var version = "HTTP/1.1"
    /// The path and query as the request line said, e.g. "/timeline?count=2".
    public var target = ""
    /// The client's IPv4 address, as the server saw the connection (the board limits reports per address).
    public var client = ""
    /// Whether the client has closed its connection by now. A route that waits (the board's long
    /// poll) asks now and then, and stops waiting for nobody.
    public var clientIsGone: @Sendable () -> Bool = { false }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Whether the client wants the connection kept open after the response: HTTP/1.1 unless it
    /// sent `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var wantsKeepAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if tokens.contains("close") { return false }
        return version == "HTTP/1.1" || tokens.contains("keep-alive")
    }

    public var acceptsGzip: Bool {
        guard let value = header("accept-encoding") else { return false }
        return value.lowercased().split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            return fields.first == "gzip" && !fields.dropFirst().contains("q=0")
        }
    }

    /// Parses the head (request line and headers) of a request. Returns nil when malformed.
    static func parseHead(_ text: String) -> HTTPRequest? {
        // Lines end in CRLF; a bare LF is taken too (a request typed into `nc`).
        // ("\r\n" is one Character in Swift, so split the text, not its Characters, on "\n".)
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        guard let components = URLComponents(string: String(requestLine[1])) else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPRequest(
            method: String(requestLine[0]), path: components.path,
            query: query, headers: headers, body: [], version: String(requestLine[2]), target: String(requestLine[1]))
    }
}

/// What a route answers. The server adds latency, bandwidth, gzip, 304s and faults on top.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// True for text bodies worth compressing when the client accepts gzip.
    public var compressible: Bool

    public init(
        status: Int = 200, contentType: String, body: [UInt8],
        compressible: Bool = true, headers: [(String, String)] = []
    ) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
        self.compressible = compressible
    }

    public static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8",
            body: Array((message + "\n").utf8), compressible: false)
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
