import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the fixture server answers a request: the server's own pages as they are, and the
/// lessons' API over "a slow, far-away link": latency, routing, caching headers, the faults,
/// gzip, then the answer written at the link's bandwidth (FixtureServer+Sending.swift).
extension FixtureServer {
    /// Which fault this request gets, if any: its own `fault=` query item (`none` for none),
    /// else a path rule, else the server-wide fault at its rate (never on `/health`).
    static func fault(for request: HTTPRequest, in s: inout State) -> Fault? {
        if let asked = request.query["fault"] {
            if asked == "none" { return nil }
            if let fault = Fault(asked) { return fault }
        }
        if let rule = s.faultsByPathPrefix.first(where: { request.path.hasPrefix($0.0) }) { return rule.1 }
        guard let fault = s.knobs.fault, !request.path.hasPrefix("/health") else { return nil }
        s.faultCandidates += 1
        return Fault.hits(requestNumber: s.faultCandidates, rate: s.knobs.faultRate) ? fault : nil
    }

    /// Answers a request for one of the server's own pages, as it is (see `init`); nil when the
    /// request is for none of them. Returns whether the connection stays open for another.
    func respondOwn(to request: HTTPRequest, on fd: Int32) -> Bool? {
        guard let own = ownRoutes.first(where: { request.path.hasPrefix($0.prefix) }) else { return nil }
        let host = request.header("host") ?? "127.0.0.1:\(port)"
        let response = own.route(request, "http://\(host)") ?? HTTPResponse.text(404, "no such page: \(request.path)")
        let keepAlive = request.wantsKeepAlive
        let (_, complete) = send(fd, response, keepAlive: keepAlive)
        return keepAlive && complete && !isStopped
    }

    /// Answers one request, in the order a real server would: count it and pick its fault,
    /// wait out the link's latency, route it, apply the cache headers (ETag, max-age, 304),
    /// break it on purpose if asked, gzip it, send it at the link's bandwidth, log it.
    /// Returns whether the connection stays open for another.
    func respond(to request: HTTPRequest, on fd: Int32, from client: String) -> Bool {
        let started = monotonicSeconds()
        let (knobs, fault) = admit(request, at: started)
        let link = Link(request, knobs: knobs)
        guard pause(link.latency) else { return false }

        var response = routed(request)
        let notModified = applyCaching(to: &response, for: request, knobs: knobs, fault: fault)
        var useGzip = link.gzipAllowed && request.acceptsGzip && response.compressible && !response.body.isEmpty
        if let fault { Self.apply(fault, to: &response, for: request, useGzip: &useGzip) }
        useGzip = Self.encode(&response, gzip: useGzip, fault: fault)

        // A dropped or stalled connection is never reused; every other answer keeps it if asked.
        let brokenOnPurpose = fault == .drop || fault == .stall
        let keepAlive = request.wantsKeepAlive && !brokenOnPurpose
        let (written, complete) = send(fd, response, bandwidth: link.bandwidth, fault: fault, keepAlive: keepAlive)
        state.withLock { s in
            s.stats.wireBytes += written
            if useGzip { s.stats.gzipResponses += 1 }
            if notModified { s.stats.notModified += 1 }
            if !complete {
                s.stats.writeFailures += 1
            } else if !brokenOnPurpose {
                s.stats.responses += 1
            }
        }
        onRequest?(
            RequestLogEntry(
                method: request.method, path: request.path, status: response.status,
                wireBytes: written, gzip: useGzip, fault: fault,
                seconds: monotonicSeconds() - started, client: client))
        return keepAlive && complete && !isStopped
    }

    /// Counts the request (under the state's lock: connections run on threads of their own) and
    /// picks its fault. Returns the knobs as they are now, for the rest of this request.
    func admit(_ request: HTTPRequest, at started: Double) -> (ServerKnobs, Fault?) {
        state.withLock { s -> (ServerKnobs, Fault?) in
            s.stats.requests += 1
            s.stats.requestsByPath[request.path, default: 0] += 1
            s.arrivals.append(started)
            if s.arrivals.count > 2 * Self.arrivalsKept { s.arrivals.removeFirst(Self.arrivalsKept) }
            let fault = Self.fault(for: request, in: &s)
            if fault != nil { s.stats.faulted += 1 }
            return (s.knobs, fault)
        }
    }

    /// The link this request travels: the server's knobs, unless its query asks otherwise
    /// (`latency=`, `bandwidth=`, `gzip=0`), within sane bounds.
    struct Link {
        let latency: Double
        let bandwidth: Int
        let gzipAllowed: Bool

        init(_ request: HTTPRequest, knobs: ServerKnobs) {
            let asked = request.query["latency"].flatMap(Double.init) ?? knobs.latencySeconds
            latency = asked.isNaN ? 0 : min(max(asked, 0), 60)
            bandwidth = max(0, request.query["bandwidth"].flatMap(Int.init) ?? knobs.bandwidthBytesPerSecond)
            gzipAllowed = request.query["gzip"].map { $0 != "0" } ?? knobs.gzip
        }
    }

    /// The first matching route's answer, or a 404.
    func routed(_ request: HTTPRequest) -> HTTPResponse {
        let host = request.header("host") ?? "127.0.0.1:\(port)"
        // Each matching route is asked once, in order, until one answers (a lazy filter +
        // compactMap + first asked the answering route twice: a route that counts saw double).
        for route in routes where request.path.hasPrefix(route.prefix) {
            if let answer = route.route(request, "http://\(host)") { return answer }
        }
        return HTTPResponse.text(404, "no such route: \(request.path)")
    }

    /// Adds an ETag and max-age to a 200 when the knobs say so, and turns the answer into a
    /// 304 when the client already has it. Returns whether it did (a faulted request never is).
    func applyCaching(
        to response: inout HTTPResponse, for request: HTTPRequest, knobs: ServerKnobs, fault: Fault?
    ) -> Bool {
        if knobs.etags, response.status == 200, response.header("ETag") == nil {
            response.headers.append(("ETag", "\"\(fnv1a(response.body))\""))
        }
        if let maxAge = knobs.maxAgeSeconds, response.status == 200, response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", "max-age=\(maxAge)"))
        }
        guard let etag = response.header("ETag"), request.header("if-none-match") == etag, fault == nil else {
            return false
        }
        var notModified = HTTPResponse(status: 304, contentType: response.header("Content-Type") ?? "", body: [])
        notModified.headers = response.headers.filter { ["etag", "cache-control"].contains($0.0.lowercased()) }
        response = notModified
        return true
    }

    /// Breaks the answer the way `fault` says, before it is encoded (the gzip faults need gzip
    /// on; a status or a redirect goes out plain). `drop` and `stall` happen while sending.
    static func apply(
        _ fault: Fault, to response: inout HTTPResponse, for request: HTTPRequest, useGzip: inout Bool
    ) {
        switch fault {
        case .status(let code):
            response = .text(code, "fault injected: status \(code)")
            useGzip = false
        case .malformed:
            response.body = Array(response.body.prefix(response.body.count / 2))
        case .redirectLoop:
            response = .text(302, "fault injected: redirected to itself")
            response.headers.append(("Location", request.target.isEmpty ? request.path : request.target))
            useGzip = false
        case .corruptGzip, .truncatedGzip:
            useGzip = true
        case .drop, .stall:
            break
        }
    }

    /// Gzips the body when asked (then breaks it for the gzip faults). Returns whether the
    /// answer went out gzipped.
    static func encode(_ response: inout HTTPResponse, gzip: Bool, fault: Fault?) -> Bool {
        guard gzip, let compressed = try? Gzip.compress(response.body) else { return false }
        response.body = compressed
        response.headers.append(("Content-Encoding", "gzip"))
        if fault == .corruptGzip {
            // Keep the 10-byte header so the client sees gzip, then scramble the deflate data.
            for i in response.body.indices.dropFirst(10) { response.body[i] ^= 0x5A }
        } else if fault == .truncatedGzip {
            response.body = Array(response.body.prefix(response.body.count * 2 / 3))
        }
        response.headers.append(("Vary", "Accept-Encoding"))
        return true
    }
}
