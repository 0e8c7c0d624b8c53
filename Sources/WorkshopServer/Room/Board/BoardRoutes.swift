import Foundation
import WorkshopCore

/// The board's HTTP side, served by the fixture server as its own pages:
///
/// - `GET /board`: the page for the projector (`?lang=ja|en`, else the room's language, else the
///   browser's Accept-Language). It names each failing check from the board's catalog, in its
///   language.
/// - `GET /board/state.json[?after=V&wait=S]`: the board as JSON; with `after`, the answer waits
///   (at most S seconds) until the board has changed past version V: the page's live update.
/// - `POST /board/report`: a `BoardBatch` from `workshop check`; `POST /board/join`: the same
///   with no reports, to check the code and the name when a learner joins.
/// - `GET /board/board.js`, `/board/board.css`: the page's script and style (no inline script:
///   the page's Content-Security-Policy allows only these files).
///
/// Every read is limited per address (`Settings.readBurst`), every report and join too
/// (`Settings.burst`): more get 429.
extension RoomBoard {
    public var routes: [(prefix: String, route: FixtureServer.Route)] {
        [
            ("/board/state.json", { [self] request, _ in read(request) { stateRoute(request) } }),
            ("/board/report", { [self] request, _ in postRoute(request, isJoin: false) }),
            ("/board/join", { [self] request, _ in postRoute(request, isJoin: true) }),
            (
                "/board/board.js",
                { [self] request, _ in
                    read(request) { Self.file(BoardPage.script, type: "text/javascript; charset=utf-8") }
                }
            ),
            (
                "/board/board.css",
                { [self] request, _ in read(request) { Self.file(BoardPage.style, type: "text/css; charset=utf-8") } }
            ),
            ("/board", { [self] request, baseURL in read(request) { pageRoute(request, baseURL: baseURL) } }),
        ]
    }

    /// `answer()`, unless the address has read too much lately: then 429.
    private func read(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
        guard case .refused(let first) = allowRead(request.client) else { return answer() }
        if first {
            onEvent?(localized(format: "board: too many reads from %@: answering 429 for a while", request.client))
        }
        var response = Self.plain(429, "too many requests from \(request.client): wait a moment")
        response.headers.append(("Retry-After", "1"))
        return response
    }

    private func pageRoute(_ request: HTTPRequest, baseURL: String) -> HTTPResponse {
        guard request.path == "/board" || request.path == "/board/" else {
            return Self.plain(404, "no such page: \(request.path)")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return Self.plain(405, "use GET") }
        let language = BoardPage.Language.pick(
            query: request.query["lang"], room: self.language.flatMap { BoardPage.Language(rawValue: $0.rawValue) },
            acceptLanguage: request.header("accept-language"))
        let page = BoardPage.html(language, joinCommand: joinCommand(pageURL: Self.safeURL(baseURL)))
        var response = Self.file(page, type: "text/html; charset=utf-8")
        response.headers.append(
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
                    + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            ))
        return response
    }

    private func stateRoute(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { return Self.plain(405, "use GET") }
        let snapshot: BoardSnapshot
        if let after = request.query["after"].flatMap(Int.init) {
            let seconds = request.query["wait"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } ?? 20
            snapshot = self.snapshot(
                after: after, waitingAtMost: seconds, from: request.client, clientIsGone: request.clientIsGone)
        } else {
            snapshot = self.snapshot()
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(snapshot) else { return Self.plain(500, "the board could not be encoded") }
        return Self.file(Array(json), type: "application/json")
    }

    private func postRoute(_ request: HTTPRequest, isJoin: Bool) -> HTTPResponse {
        let what = isJoin ? "join" : "report"
        guard request.method == "POST" else { return Self.plain(405, "use POST") }
        if case .refused(let first) = allow(request.client) {
            if first {
                onEvent?(
                    localized(format: "board: too many requests from %@: answering 429 for a while", request.client))
            }
            var response = Self.plain(429, "too many reports from \(request.client): wait a moment")
            response.headers.append(("Retry-After", "1"))
            return response
        }
        guard request.body.count <= BoardRules.maxBodyBytes else {
            return refused(413, "a \(what) is at most \(BoardRules.maxBodyBytes) bytes", request)
        }
        guard String(validating: request.body, as: UTF8.self) != nil else {
            return refused(400, "the \(what) is not UTF-8 text", request)
        }
        let batch: BoardBatch
        do { batch = try JSONDecoder().decode(BoardBatch.self, from: Data(request.body)) } catch {
            return refused(400, "the \(what) is not the JSON the workshop sends", request)
        }
        switch take(batch, from: request.client, isJoin: isJoin) {
        case .refused(429, let reason):
            // Said once per flood by `take`, not once per request.
            var response = Self.plain(429, reason)
            response.headers.append(("Retry-After", "1"))
            return response
        case .refused(let status, let reason):
            return refused(status, reason, request)
        case .accepted(let name, let count, let version):
            if isJoin {
                onEvent?(localized(format: "board: %1$@ joined from %2$@", name, request.client))
            } else {
                let latest = batch.reports.last.map {
                    localized(format: $0.passed ? "%@ passed" : "%@ failing", $0.exercise)
                }
                let late = count > 1 ? localized(format: " (+%d sent late)", count - 1) : ""
                onEvent?(localized(format: "board: %1$@: %2$@%3$@", name, latest ?? "", late))
            }
            let body = "{\"accepted\":\(count),\"version\":\(version)}"
            return Self.file(Array(body.utf8), type: "application/json")
        }
    }

    private func refused(_ status: Int, _ reason: String, _ request: HTTPRequest) -> HTTPResponse {
        // The reason goes to the client in English (an API); the log says it in its own language.
        onEvent?(
            localized(
                format: "board: refused %1$@ from %2$@: %3$d %4$@", request.path, request.client, status,
                localized(reason)))
        return Self.plain(status, reason)
    }

    /// "http://HOST:PORT" as the page was asked for (the Host header), when it is one: letters,
    /// digits, dots, dashes and a port; else a placeholder. The page shows it as text anyway.
    static func safeURL(_ baseURL: String) -> String {
        let host = baseURL.dropFirst("http://".count)
        let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }
        return baseURL.hasPrefix("http://") && !host.isEmpty && host.count <= 80 && allowed
            ? baseURL : "http://THIS-MACHINE:PORT"
    }

    /// Every answer of the board: never cached, never sniffed as another type than it says.
    static func file(_ body: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(
            contentType: type, body: body, compressible: false,
            headers: [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")])
    }

    static func file(_ text: String, type: String) -> HTTPResponse { file(Array(text.utf8), type: type) }

    static func plain(_ status: Int, _ message: String) -> HTTPResponse {
        var response = file(message + "\n", type: "text/plain; charset=utf-8")
        response.status = status
        return response
    }
}
