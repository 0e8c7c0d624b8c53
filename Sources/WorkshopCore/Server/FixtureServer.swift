import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 that plays "the external API" of the articles.
///
/// It is written on plain sockets, one thread per connection, so that every byte it
/// writes is counted where it is written, and so that latency, a slow link, a dropped
/// connection or a stall are exactly what they look like on the wire. Each response is
/// sent with `Connection: close`: one request, one connection, easy to follow in a log.
public final class FixtureServer: @unchecked Sendable {  // @unchecked: mutable state is in `state` (a Locked) and `stopCondition` (an NSCondition)
    public typealias Route = @Sendable (HTTPRequest, _ baseURL: String) -> HTTPResponse?

    private struct State {
        var knobs: ServerKnobs
        var faultsByPathPrefix: [(String, Fault)] = []
        var stats = ServerStats()
        var openSockets: Set<Int32> = []
        var listenSocket: Int32 = -1
    }

    private let state: Locked<State>
    private let routes: [(prefix: String, route: Route)]
    private let stopCondition = NSCondition()
    private var stopped = false  // guarded by stopCondition
    private let threads = DispatchGroup()
    private let onRequest: (@Sendable (RequestLogEntry) -> Void)?

    /// The address the server is listening on, e.g. "http://127.0.0.1:41234". Set by `start`.
    public private(set) var baseURL: URL = URL(string: "http://127.0.0.1:0")!
    public private(set) var port: UInt16 = 0

    /// - Parameters:
    ///   - routes: path prefix and handler pairs, tried in order (see `FixtureAPI`).
    ///   - onRequest: called on a server thread after each response, for logs.
    public init(knobs: ServerKnobs = ServerKnobs(),
                routes: [(prefix: String, route: Route)] = FixtureAPI.routes,
                onRequest: (@Sendable (RequestLogEntry) -> Void)? = nil) {
        self.state = Locked(State(knobs: knobs))
        self.routes = routes
        self.onRequest = onRequest
    }

    deinit { stop() }

    // MARK: Knobs and counters

    public var knobs: ServerKnobs {
        get { state.withLock { $0.knobs } }
        set { state.withLock { $0.knobs = newValue } }
    }

    public var stats: ServerStats { state.withLock { $0.stats } }

    public func resetStats() { state.withLock { $0.stats = ServerStats() } }

    /// Makes every request whose path starts with `prefix` fail with `fault` (nil clears it).
    public func setFault(_ fault: Fault?, forPathPrefix prefix: String) {
        state.withLock { s in
            s.faultsByPathPrefix.removeAll { $0.0 == prefix }
            if let fault { s.faultsByPathPrefix.append((prefix, fault)) }
        }
    }

    // MARK: Start and stop

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds 127.0.0.1 (loopback only: nothing outside this machine can reach it) and starts
    /// accepting. Port 0 asks the system for a free port; `baseURL` tells which one it gave.
    @discardableResult
    public func start(port requested: UInt16 = 0) throws -> URL {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StartError(description: "cannot listen on 127.0.0.1:\(requested): \(reason). Is another server using that port? Try --port 0 for a free one.")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        state.withLock { $0.listenSocket = fd }

        threads.enter()
        let acceptThread = Thread { [self] in
            acceptLoop(fd)
            threads.leave()
        }
        acceptThread.name = "fixture-server accept"
        acceptThread.start()
        return baseURL
    }

    /// The IPv4 address the listening socket is bound to (always "127.0.0.1").
    public var boundAddress: String? {
        let fd = state.withLock { $0.listenSocket }
        guard fd >= 0 else { return nil }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard ok == 0 else { return nil }
        return String(cString: inet_ntoa(actual.sin_addr))
    }

    /// Stops accepting, wakes every waiting response, closes open connections, and waits
    /// (at most `timeout` seconds) for the server's threads to end.
    public func stop(timeout: Double = 5) {
        stopCondition.lock()
        let wasStopped = stopped
        stopped = true
        stopCondition.broadcast()
        stopCondition.unlock()
        if wasStopped { return }
        let sockets = state.withLock { s -> [Int32] in
            Array(s.openSockets) + (s.listenSocket >= 0 ? [s.listenSocket] : [])
        }
        // shutdown() (not close) wakes a thread blocked in accept/recv/send on that socket;
        // the thread that owns the socket closes it, so a descriptor is never reused under it.
        for fd in sockets { shutdown(fd, Int32(SHUT_RDWR)) }
        _ = threads.wait(timeout: .now() + timeout)
    }

    private var isStopped: Bool {
        stopCondition.lock(); defer { stopCondition.unlock() }
        return stopped
    }

    /// Waits `seconds` or until `stop()`, whichever is first. Returns false when stopped.
    /// This is the server imitating a slow network, not one thread waiting for another.
    private func pause(_ seconds: Double) -> Bool {
        guard seconds > 0 else { return !isStopped }
        let deadline = Date(timeIntervalSinceNow: seconds)
        stopCondition.lock(); defer { stopCondition.unlock() }
        while !stopped {
            if !stopCondition.wait(until: deadline) { return !stopped }
        }
        return false
    }

    // MARK: Connections

    private func acceptLoop(_ listenFD: Int32) {
        while !isStopped {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break  // shut down by stop(), or a real error: either way, stop accepting
            }
            var registered = false
            state.withLock { s in
                if !isStopped { s.openSockets.insert(client); registered = true }
            }
            guard registered else { close(client); break }
            threads.enter()
            let thread = Thread { [self] in
                serve(client)
                state.withLock { _ = $0.openSockets.remove(client) }
                close(client)
                threads.leave()
            }
            thread.name = "fixture-server connection"
            thread.start()
        }
        state.withLock { $0.listenSocket = -1 }
        close(listenFD)
    }

    private func serve(_ fd: Int32) {
        let started = monotonicSeconds()
        guard let request = readRequest(fd) else {
            _ = send(fd, HTTPResponse.text(400, "bad request"), gzip: false)
            return
        }
        let (knobs, ruleFault) = state.withLock { s in
            (s.knobs, s.faultsByPathPrefix.first { request.path.hasPrefix($0.0) }?.1)
        }
        let latency = request.query["latency"].flatMap(Double.init) ?? knobs.latencySeconds
        let bandwidth = request.query["bandwidth"].flatMap(Int.init) ?? knobs.bandwidthBytesPerSecond
        let gzipAllowed = request.query["gzip"].map { $0 != "0" } ?? knobs.gzip
        let fault = request.query["fault"].flatMap(Fault.init) ?? ruleFault

        state.withLock { s in
            s.stats.requests += 1
            s.stats.requestsByPath[request.path, default: 0] += 1
        }
        guard pause(latency) else { return }

        let host = request.header("host") ?? "127.0.0.1:\(port)"
        var response = routes.lazy.filter { request.path.hasPrefix($0.prefix) }
            .compactMap { $0.route(request, "http://\(host)") }.first
            ?? HTTPResponse.text(404, "no such route: \(request.path)")

        if knobs.etags, response.status == 200, response.header("ETag") == nil {
            response.headers.append(("ETag", "\"\(fnv1a(response.body))\""))
        }
        if let maxAge = knobs.maxAgeSeconds, response.status == 200, response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", "max-age=\(maxAge)"))
        }
        if let etag = response.header("ETag"), request.header("if-none-match") == etag, fault == nil {
            var notModified = HTTPResponse(status: 304, contentType: response.header("Content-Type") ?? "", body: [])
            notModified.headers = response.headers.filter { ["etag", "cache-control"].contains($0.0.lowercased()) }
            response = notModified
            state.withLock { $0.stats.notModified += 1 }
        }

        var useGzip = gzipAllowed && request.acceptsGzip && response.compressible && !response.body.isEmpty
        switch fault {
        case .status(let code)?:
            response = .text(code, "fault injected: status \(code)")
            useGzip = false
        case .malformed?:
            response.body = Array(response.body.prefix(response.body.count / 2))
        case .corruptGzip?:
            useGzip = true
        case .truncatedGzip?:
            useGzip = true
        default:
            break
        }
        if useGzip, let compressed = try? Gzip.compress(response.body) {
            response.body = compressed
            response.headers.append(("Content-Encoding", "gzip"))
            if fault == .corruptGzip {
                // Keep the 10-byte header so the client sees gzip, then scramble the deflate data.
                for i in response.body.indices.dropFirst(10) { response.body[i] ^= 0x5A }
            } else if fault == .truncatedGzip {
                response.body = Array(response.body.prefix(response.body.count * 2 / 3))
            }
        } else {
            useGzip = false
        }
        if useGzip { response.headers.append(("Vary", "Accept-Encoding")) }

        let written = send(fd, response, gzip: useGzip, bandwidth: bandwidth, fault: fault)
        state.withLock { s in
            s.stats.wireBytes += written
            if useGzip { s.stats.gzipResponses += 1 }
        }
        onRequest?(RequestLogEntry(method: request.method, path: request.path, status: response.status,
                                   wireBytes: written, gzip: useGzip, fault: fault,
                                   seconds: monotonicSeconds() - started))
    }

    /// Reads the request head (and a Content-Length body). Returns nil on a malformed request.
    private func readRequest(_ fd: Int32) -> HTTPRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
            if buffer.count > 64 * 1024 { return nil }
            headEnd = buffer.firstRange(of: terminator)?.lowerBound
        }
        guard let end = headEnd,
              let head = String(bytes: buffer[..<end], encoding: .utf8),
              var request = HTTPRequest.parseHead(head) else { return nil }
        var body = Array(buffer[(end + 4)...])
        let expected = request.header("content-length").flatMap(Int.init) ?? 0
        while body.count < expected {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            body.append(contentsOf: chunk[0..<n])
        }
        request.body = Array(body.prefix(expected))
        return request
    }

    /// Writes the response, pacing the body at `bandwidth` bytes/s. Returns bytes written.
    private func send(_ fd: Int32, _ response: HTTPResponse, gzip: Bool,
                      bandwidth: Int = 0, fault: Fault? = nil) -> Int {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var written = write(fd, Array(head.utf8))
        guard written >= 0 else { return 0 }

        var body = response.body[...]
        switch fault {
        case .drop?: body = body.prefix(body.count / 2)
        case .stall?:
            waitForHangUp(fd)
            return written
        default: break
        }
        // A slow link: send in slices, each one on the schedule `bytes sent / bandwidth`.
        let slice = bandwidth > 0 ? max(1, bandwidth / 50) : max(1, body.count)
        let start = monotonicSeconds()
        var sent = 0
        while !body.isEmpty {
            let piece = Array(body.prefix(slice))
            body = body.dropFirst(piece.count)
            let n = write(fd, piece)
            if n < 0 { break }
            sent += n
            written += n
            if bandwidth > 0, !body.isEmpty {
                let due = start + Double(sent) / Double(bandwidth)
                guard pause(due - monotonicSeconds()) else { break }
            }
        }
        if fault == .drop {
            // Reset the connection instead of closing it politely, as a failing network would.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        return written
    }

    /// Writes all bytes (MSG_NOSIGNAL: a closed peer gives an error, not SIGPIPE). -1 on error.
    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { sendNoSignal(fd, $0) }
            if n < 0 {
                if errno == EINTR { continue }
                return offset == 0 ? -1 : offset
            }
            offset += n
        }
        return offset
    }

    /// For the stall fault: returns when the client closes the connection or the server stops.
    private func waitForHangUp(_ fd: Int32) {
        var byte: UInt8 = 0
        while !isStopped {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 200)  // wake every 200 ms to notice stop()
            if ready < 0 && errno != EINTR { return }
            if ready > 0 {
                if entry.revents & Int16(POLLHUP | POLLERR) != 0 { return }
                if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { return }  // 0: client closed
            }
        }
    }
}

private func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    return send(fd, bytes.baseAddress, bytes.count, 0)  // Darwin: SO_NOSIGPIPE would be set per socket
    #endif
}

/// A short, stable fingerprint of a body, used as its ETag.
public func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
}
