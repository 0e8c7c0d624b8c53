import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server that plays "the external API" of the articles: on 127.0.0.1 by
/// default, on the room's network with `start(host: "0.0.0.0")`.
///
/// It is written on plain sockets, one thread per connection, so that every byte it
/// writes is counted where it is written, and so that latency, a slow link, a dropped
/// connection or a stall are exactly what they look like on the wire. A client that asks
/// for it (every HTTP/1.1 client unless it sends `Connection: close`) keeps its connection
/// for further requests.
///
/// Bounded for a room of clients (see `ServerKnobs`): at most `maxConnections` served at once
/// (one more gets a quick 503), a read timeout for silent, slow or idle clients, and size
/// limits on a request (400, 413, 431). None of these stops the server. On a room's network
/// (`ServerKnobs.room`) also: at most so many connections per client address, a short wait for
/// a new connection's first byte, and connections kept beyond the pool for the priority paths
/// (the board's reports), so that whatever holds the pool cannot keep a report out.
// Sendable, checked: every stored property is a constant of a Sendable type; what changes is
// in `state` and `stopped` (Watched: a value behind its NSCondition) and `binding` (Locked).
public final class FixtureServer: Sendable {
    public typealias Route = @Sendable (HTTPRequest, _ baseURL: String) -> HTTPResponse?

    private struct State {
        var knobs: ServerKnobs
        var faultsByPathPrefix: [(String, Fault)] = []
        var stats = ServerStats()
        var openSockets: Set<Int32> = []
        var listenSocket: Int32 = -1
        /// Connections being served: counted against `knobs.maxConnections`.
        var serving = 0
        /// Connections being answered 503, at most `maxRejecting`.
        var rejecting = 0
        /// Connections in the room kept for the priority paths, at most `knobs.reservedConnections`.
        var reserving = 0
        /// Connections open per client address (served, kept or being refused): `maxConnectionsPerAddress`.
        var perAddress: [String: Int] = [:]
        /// When a notice about a flood was last given, by what it is about: said once per `noticeEvery`.
        var noticedAt: [String: Double] = [:]
        /// Requests the server-wide fault could have hit so far (for `Fault.hits`).
        var faultCandidates = 0
        /// When the latest requests came in (monotonic seconds), oldest first, at most
        /// `arrivalsKept`: what a lesson counts as "requests after the cancel".
        var arrivals: [Double] = []
    }

    static let arrivalsKept = 10_000

    /// Connections over the limit get their 503 on a short-lived thread of their own; beyond this
    /// many at once they are closed without an answer, so a flood cannot make threads without end.
    static let maxRejecting = 32

    /// A notice about the same flood (one address over its limit, silent connections from it) is
    /// given once in this many seconds: a flood must not flood the log.
    static let noticeEvery = 10.0

    private let state: Watched<State>
    private let routes: [(prefix: String, route: Route)]
    /// The server's own pages (the room's board), answered as they are: see `init`.
    private let ownRoutes: [(prefix: String, route: Route)]
    /// The paths served in the room kept beyond the pool (`ServerKnobs.reservedConnections`).
    private let priorityPaths: [String]
    /// Whether `stop()` has run; `pause` waits on it, so a stop wakes every paused response.
    private let stopped = Watched(false)
    private let threads = DispatchGroup()
    private let onRequest: (@Sendable (RequestLogEntry) -> Void)?
    private let onNotice: (@Sendable (String) -> Void)?

    /// The address the server is listening on, e.g. "http://127.0.0.1:41234". Set by `start`.
    /// For a server on 0.0.0.0 this is the loopback address, which works on this machine.
    /// Where the server listens, once `start` has bound it: an immutable value, read under its lock.
    private struct Bound: Sendable {
        var baseURL = URL.http(host: "127.0.0.1", port: 0)
        var port: UInt16 = 0
        var listenAddress = HostAddress.loopback
    }
    private let binding = Locked(Bound())

    public var baseURL: URL { binding.withLock { $0.baseURL } }
    public var port: UInt16 { binding.withLock { $0.port } }
    /// The address given to `start`: 127.0.0.1, 0.0.0.0 or one interface's address.
    public var listenAddress: HostAddress { binding.withLock { $0.listenAddress } }

    /// - Parameters:
    ///   - routes: path prefix and handler pairs, tried in order (see `FixtureAPI`).
    ///   - onRequest: called on a server thread after each response to a request, for logs.
    ///   - onNotice: called on a server thread with one line when the server refuses or closes a
    ///     connection on its own: 503 over the limit, 400/413/431/501, a read timeout.
    ///   - ownRoutes: the server's own pages, such as the room's board (`RoomBoard.routes`), tried
    ///     first. They are answered as they are: no latency, bandwidth limit, gzip, ETag or fault,
    ///     not counted in `stats` nor in the fault rate's count, not logged by `onRequest`. So
    ///     what learners send the board never changes what the lesson API does, and the knobs of
    ///     the lesson API never break the board.
    ///   - priorityPaths: the paths (exactly) that may be served in the connections kept beyond the
    ///     pool (`ServerKnobs.reservedConnections`): the board's reports (`RoomBoard.priorityPaths`).
    public init(
        knobs: ServerKnobs = ServerKnobs(),
        routes: [(prefix: String, route: Route)] = FixtureAPI.routes,
        ownRoutes: [(prefix: String, route: Route)] = [],
        priorityPaths: [String] = [],
        onRequest: (@Sendable (RequestLogEntry) -> Void)? = nil,
        onNotice: (@Sendable (String) -> Void)? = nil
    ) {
        self.state = Watched(State(knobs: knobs))
        self.routes = routes
        self.ownRoutes = ownRoutes
        self.priorityPaths = priorityPaths
        self.onRequest = onRequest
        self.onNotice = onNotice
    }

    deinit { stop() }

    // MARK: Knobs and counters

    public var knobs: ServerKnobs {
        get { state.withLock { $0.knobs } }
        set { state.withLock { $0.knobs = newValue } }
    }

    public var stats: ServerStats { state.withLock { $0.stats } }

    public func resetStats() { state.withLock { $0.stats = ServerStats() } }

    /// Requests that came in at `monotonic` seconds (`monotonicSeconds()`) or later: a request
    /// counts when the server has read it, so one sent a moment before may count too.
    public func requestsReceived(since monotonic: Double) -> Int {
        state.withLock { s in s.arrivals.reversed().prefix { $0 >= monotonic }.count }
    }

    /// Waits until the server's counters satisfy `condition` (checked after every change) or
    /// `timeout` seconds pass. Returns whether they do. For tests and the self-check: the client
    /// has its answer a moment before the server thread that sent it has counted it.
    @discardableResult
    public func waitForStats(timeout: Double, until condition: (ServerStats) -> Bool) -> Bool {
        state.wait(timeout: timeout) { condition($0.stats) }
    }

    /// Makes every request whose path starts with `prefix` fail with `fault` (nil clears it).
    public func setFault(_ fault: Fault?, forPathPrefix prefix: String) {
        state.withLock { s in
            s.faultsByPathPrefix.removeAll { $0.0 == prefix }
            if let fault { s.faultsByPathPrefix.append((prefix, fault)) }
        }
    }

    // MARK: Start and stop

    public struct StartError: Error, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// The host is not an IPv4 address.
            case badHost
            /// Another socket listens on that port.
            case portInUse
            /// The address is not one of this machine's.
            case addressNotAvailable
            /// Ports below 1024 need root.
            case permissionDenied
            case other
        }
        public let description: String
        public var reason: Reason = .other
    }

    /// Binds 127.0.0.1 (loopback only: nothing outside this machine can reach it) and starts
    /// accepting. Port 0 asks the system for a free port; `baseURL` tells which one it gave.
    @discardableResult
    public func start(port requested: UInt16 = 0) throws -> URL {
        try start(host: HostAddress.loopback.text, port: requested)
    }

    /// Binds `host` (an IPv4 address: "127.0.0.1", "0.0.0.0" for every interface, or one
    /// interface's address) and starts accepting.
    @discardableResult
    public func start(host: String, port requested: UInt16 = 0) throws -> URL {
        guard let address = HostAddress(host) else {
            throw StartError(
                description: localized(format: "'%@' is not an IPv4 address such as 127.0.0.1 or 0.0.0.0", host),
                reason: .badHost)
        }
        let fd = socket(AF_INET, Sockets.stream, 0)
        guard fd >= 0 else { throw StartError(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = requested.bigEndian
        socketAddress.sin_addr.s_addr = address.address
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // The kernel caps the backlog at net.core.somaxconn; connections wait there while the
        // accept thread starts threads for the ones before them.
        guard bound == 0, listen(fd, 1024) == 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            close(fd)
            let place = "\(address):\(requested)"
            switch code {
            case EADDRINUSE:
                throw StartError(
                    description: localized(
                        format:
                            "cannot listen on %1$@: port %2$@ is already in use (another fixture-server?). Stop that one, or pick another port (0 picks a free one).",
                        place, "\(requested)"),
                    reason: .portInUse)
            case EADDRNOTAVAIL:
                throw StartError(
                    description: localized(
                        format:
                            "cannot listen on %1$@: %2$@ is not an address of this machine. Use 127.0.0.1, 0.0.0.0 (every interface) or one of: %3$@.",
                        place, "\(address)", HostAddress.interfaceAddresses().joined(separator: ", ")),
                    reason: .addressNotAvailable)
            case EACCES:
                throw StartError(
                    description: localized(
                        format: "cannot listen on %@: ports below 1024 need root. Use a port such as 8080.", place),
                    reason: .permissionDenied)
            default:
                throw StartError(
                    description: localized(
                        format:
                            "cannot listen on %1$@: %2$@. Is another server using that port? Try port 0 for a free one.",
                        place, reason))
            }
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = UInt16(bigEndian: actual.sin_port)
        let url = URL.http(host: address.isAny ? HostAddress.loopback.text : address.text, port: port)
        binding.withLock { $0 = Bound(baseURL: url, port: port, listenAddress: address) }
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

    /// The IPv4 address the listening socket is bound to ("127.0.0.1" unless `start(host:)` said otherwise).
    public var boundAddress: String? {
        state.withLock { s -> String? in
            // Under the lock, so the accept thread cannot close the socket meanwhile.
            guard s.listenSocket >= 0 else { return nil }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s.listenSocket, $0, &length) }
            }
            return ok == 0 ? ipv4String(actual.sin_addr) : nil
        }
    }

    /// Stops accepting, wakes every waiting response, closes open connections, and waits
    /// (at most `timeout` seconds) for the server's threads to end.
    public func stop(timeout: Double = 5) {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        if wasStopped { return }
        // shutdown() (not close) wakes a thread blocked in accept/recv/send/poll on that socket.
        // The thread that owns a socket closes it, under the same lock as it leaves the set, so
        // a descriptor shut down here is never one already closed and reused for something else.
        state.withLock { s in
            for fd in s.openSockets { shutdown(fd, Int32(SHUT_RDWR)) }
            if s.listenSocket >= 0 { shutdown(s.listenSocket, Int32(SHUT_RDWR)) }
        }
        _ = threads.wait(timeout: .now() + timeout)
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    /// Waits `seconds` or until `stop()`, whichever is first. Returns false when stopped.
    /// This is the server imitating a slow network, not one thread waiting for another.
    private func pause(_ seconds: Double) -> Bool {
        guard seconds > 0 else { return !isStopped }
        return !stopped.wait(timeout: seconds) { $0 }
    }

    private func notice(_ text: String) { onNotice?(text) }

    /// Gives the notice `text()` unless one about `subject` was given less than `noticeEvery` ago.
    private func notice(about subject: String, _ text: () -> String) {
        let now = monotonicSeconds()
        let due = state.withLock { s -> Bool in
            if let last = s.noticedAt[subject], now - last < Self.noticeEvery { return false }
            if s.noticedAt.count > 4096 { s.noticedAt = s.noticedAt.filter { now - $0.value < Self.noticeEvery } }
            s.noticedAt[subject] = now
            return true
        }
        if due { notice(text()) }
    }

    // MARK: Connections

    private enum Role {
        case serve
        /// In the room kept for the priority paths: one request, and only to one of them.
        case serveReserved
        case reject
        case closeAtOnce
        /// From an address that holds `maxConnectionsPerAddress` already.
        case overAddressLimit
    }

    private func acceptLoop(_ listenFD: Int32) {
        var outOfDescriptors = false
        while !isStopped {
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listenFD, $0, &length) }
            }
            if client < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    // Out of descriptors or memory: the connection waits in the backlog until some close.
                    if !outOfDescriptors {
                        notice(
                            localized(
                                format: "accept: %@; waiting for connections to close", String(cString: strerror(code)))
                        )
                    }
                    outOfDescriptors = true
                    guard pause(0.05) else { break }
                    continue
                }
                break  // shut down by stop(), or a real error: either way, stop accepting
            }
            outOfDescriptors = false
            let address = ipv4String(peer.sin_addr)
            let decision = state.withLock { s -> (role: Role, limit: Int)? in
                guard !isStopped else { return nil }
                s.stats.connections += 1
                let role: Role
                if let cap = s.knobs.maxConnectionsPerAddress, s.perAddress[address, default: 0] >= max(1, cap) {
                    s.stats.overAddressLimit += 1
                    return (.overAddressLimit, cap)
                } else if s.serving < max(1, s.knobs.maxConnections) {
                    s.serving += 1
                    role = .serve
                } else if s.reserving < s.knobs.reservedConnections, !priorityPaths.isEmpty {
                    s.reserving += 1
                    s.stats.reserved += 1
                    role = .serveReserved
                } else if s.rejecting < Self.maxRejecting {
                    s.rejecting += 1
                    s.stats.rejected += 1
                    role = .reject
                } else {
                    s.stats.rejected += 1
                    return (.closeAtOnce, s.knobs.maxConnections)
                }
                s.perAddress[address, default: 0] += 1
                s.openSockets.insert(client)
                s.stats.openConnections += 1
                return (role, s.knobs.maxConnections)
            }
            guard let (role, limit) = decision else {
                close(client)
                break
            }
            if role == .closeAtOnce || role == .overAddressLimit {
                // Closed without a word: an answer would cost a thread, and a flood must cost us nothing.
                close(client)
                if role == .overAddressLimit {
                    notice(about: "address limit " + address) {
                        localized(
                            format:
                                "closing connections from %1$@ at once: it holds %2$d already (the limit per address, --max-connections-per-address)",
                            address, limit)
                    }
                } else {
                    notice(
                        localized(
                            format:
                                "closed a connection from %1$@ at once: %2$d connections open and too many waiting for their 503",
                            "\(address)", limit))
                }
                continue
            }
            configure(client)
            threads.enter()
            let thread = Thread { [self] in
                switch role {
                case .serve: serveConnection(client, from: address, reserved: false)
                case .serveReserved: serveConnection(client, from: address, reserved: true)
                default: reject(client, from: address, limit: limit)
                }
                state.withLock { s in
                    s.openSockets.remove(client)
                    close(client)  // under the lock: see stop()
                    s.stats.openConnections -= 1
                    switch role {
                    case .serve: s.serving -= 1
                    case .serveReserved: s.reserving -= 1
                    default: s.rejecting -= 1
                    }
                    let left = s.perAddress[address, default: 1] - 1
                    s.perAddress[address] = left > 0 ? left : nil
                }
                threads.leave()
            }
            thread.name = "fixture-server connection"
            thread.start()
        }
        state.withLock { s in
            s.listenSocket = -1
            close(listenFD)  // under the lock: see stop()
        }
    }

    /// No Nagle delay (a head and a body written apart would otherwise wait for the client's
    /// delayed ACK on a kept-alive connection), and a send timeout: a client that stops
    /// reading is dropped after the read timeout.
    private func configure(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        Sockets.noSignalOnWrite(fd)
        let seconds = max(1, state.withLock { $0.knobs.readTimeoutSeconds })
        var wait = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One connection: requests one after another while the client keeps it alive. A `reserved`
    /// one (in the room kept beyond the pool) takes one request, for a priority path only.
    private func serveConnection(_ fd: Int32, from client: String, reserved: Bool) {
        var reader = RequestReader(fd: fd)
        var answered = 0
        while !isStopped {
            let knobs = state.withLock { $0.knobs }
            let timeout = max(0.1, knobs.readTimeoutSeconds)  // 0 or less would close every connection at once
            let now = monotonicSeconds()
            // A new connection's first byte: the short wait, when there is one (always in the kept room).
            let short = knobs.firstByteTimeoutSeconds ?? (reserved ? ServerKnobs.defaultFirstByteTimeoutSeconds : nil)
            let firstByte = answered == 0 ? short.map { max(0.1, $0) } : nil
            let silentAfter = min(timeout, firstByte ?? timeout)
            switch reader.next(
                deadline: now + timeout, firstByteDeadline: now + silentAfter, maxHeadBytes: knobs.maxHeadBytes,
                maxBodyBytes: knobs.maxBodyBytes)
            {
            case .request(var request):
                answered += 1
                request.client = client
                // Asked by a route that waits: the socket is this thread's until the route returns.
                request.clientIsGone = { Self.peerHasClosed(fd) }
                if reserved {
                    return serveReserved(request, on: fd, from: client)
                }
                guard respondOwn(to: request, on: fd) ?? respond(to: request, on: fd, from: client) else { return }
            case .closed:
                return
            case .timedOut(let startedRequest):
                if startedRequest {
                    state.withLock { $0.stats.readTimeouts += 1 }
                    refuse(
                        fd, status: 408, "the request was not complete after \(seconds(timeout, english: true))",
                        logged: localized(format: "the request was not complete after %@", seconds(timeout)),
                        from: client)
                } else if answered == 0 {
                    state.withLock { $0.stats.readTimeouts += 1 }
                    notice(about: "silent " + client) {
                        localized(
                            format: "closed a silent connection from %1$@: no request within %2$@", client,
                            seconds(silentAfter))
                    }
                } else {
                    state.withLock { $0.stats.idleClosed += 1 }
                }
                return
            case .refused(let status, let reason, let logged):
                state.withLock { $0.stats.badRequests += 1 }
                refuse(fd, status: status, reason, logged: logged, from: client)
                return
            }
        }
    }

    /// The one request of a connection in the room kept beyond the pool: served when it is for a
    /// priority path (and the connection closed after it), else 503 as if there were no room.
    private func serveReserved(_ request: HTTPRequest, on fd: Int32, from client: String) {
        guard priorityPaths.contains(request.path) else {
            let limit = state.withLock { s -> Int in
                s.stats.rejected += 1
                return s.knobs.maxConnections
            }
            return reject(fd, from: client, limit: limit)
        }
        var closing = request
        closing.headers["connection"] = "close"
        _ = respondOwn(to: closing, on: fd) ?? respond(to: closing, on: fd, from: client)
    }

    /// Whether the client at the other end of `fd` has closed it (or reset it). Does not wait; a
    /// request sent ahead (pipelined) is left where it is.
    static func peerHasClosed(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Answers a connection over the limit with 503 and closes it.
    private func reject(_ fd: Int32, from client: String, limit: Int) {
        var response = HTTPResponse.text(503, "the server is busy: \(limit) connections open. Try again in a moment.")
        response.headers.append(("Retry-After", "1"))
        let (written, _) = send(fd, response, keepAlive: false)
        state.withLock { $0.stats.wireBytes += written }
        notice(localized(format: "503 to %1$@: %2$d connections open (the limit), connection closed", client, limit))
        closeGently(fd)
    }

    /// Answers a request the server will not take (`reason`, in English: the response is an
    /// API), then closes the connection; the log says `logged`.
    private func refuse(_ fd: Int32, status: Int, _ reason: String, logged: String, from client: String) {
        let (written, _) = send(fd, .text(status, reason), keepAlive: false)
        state.withLock { $0.stats.wireBytes += written }
        notice(localized(format: "%1$d to %2$@: %3$@; connection closed", status, client, logged))
        closeGently(fd)
    }

    /// Ends our side, then reads and drops what the client still sends, for at most a second:
    /// closing with unread bytes would reset the connection, and the client could lose the answer.
    private func closeGently(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        let deadline = monotonicSeconds() + 1
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        while drained < 4 * 1024 * 1024, !isStopped {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32((remaining * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return }
            let count = scratch.count
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
            if n <= 0 { return }
            drained += n
        }
    }

    // MARK: Requests

    /// Which fault this request gets, if any: its own `fault=` query item (`none` for none),
    /// else a path rule, else the server-wide fault at its rate (never on `/health`).
    private static func fault(for request: HTTPRequest, in s: inout State) -> Fault? {
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
    private func respondOwn(to request: HTTPRequest, on fd: Int32) -> Bool? {
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
    private func respond(to request: HTTPRequest, on fd: Int32, from client: String) -> Bool {
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
    private func admit(_ request: HTTPRequest, at started: Double) -> (ServerKnobs, Fault?) {
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
    private struct Link {
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
    private func routed(_ request: HTTPRequest) -> HTTPResponse {
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
    private func applyCaching(
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
    private static func apply(
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
    private static func encode(_ response: inout HTTPResponse, gzip: Bool, fault: Fault?) -> Bool {
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

    /// Writes the response, pacing the body at `bandwidth` bytes/s. Returns the bytes written,
    /// and whether all that was meant to go out did (a `drop` fault means half the body).
    private func send(
        _ fd: Int32, _ response: HTTPResponse,
        bandwidth: Int = 0, fault: Fault? = nil, keepAlive: Bool
    ) -> (written: Int, complete: Bool) {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        let headBytes = Array(head.utf8)

        var body = response.body[...]
        switch fault {
        case .drop?: body = body.prefix(body.count / 2)
        case .stall?:
            let written = write(fd, headBytes)
            guard written == headBytes.count else { return (written, false) }
            waitForHangUp(fd)
            return (written, true)
        default: break
        }
        defer {
            if fault == .drop {
                // Reset the connection instead of closing it politely, as a failing network would.
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            }
        }
        guard bandwidth > 0 else {
            // No slow link: head and body in one write.
            let all = headBytes + body
            let written = write(fd, all)
            return (written, written == all.count)
        }
        var written = write(fd, headBytes)
        guard written == headBytes.count else { return (written, false) }
        // A slow link: send in slices, each one on the schedule `bytes sent / bandwidth`.
        let slice = max(1, bandwidth / 50)
        let start = monotonicSeconds()
        var sent = 0
        while !body.isEmpty {
            let piece = Array(body.prefix(slice))
            body = body.dropFirst(piece.count)
            let n = write(fd, piece)
            written += n
            if n < piece.count { return (written, false) }
            sent += n
            if !body.isEmpty {
                let due = start + Double(sent) / Double(bandwidth)
                guard pause(due - monotonicSeconds()) else { return (written, false) }
            }
        }
        return (written, true)
    }

    /// Writes all bytes (MSG_NOSIGNAL: a closed peer gives an error, not SIGPIPE). Returns how
    /// many went out: fewer than `bytes.count` when the client went away or stopped reading.
    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Sockets.send(fd, $0) }
            if n < 0 {
                if errno == EINTR { continue }
                return offset
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

/// "10 s", "0.5 s" (in Japanese "10 秒", unless `english`: what a response says stays English).
private func seconds(_ value: Double, english: Bool = false) -> String {
    let number = value == value.rounded() ? "\(Int(value))" : "\(value)"
    return english ? "\(number) s" : localized(format: "%@ s", number)
}

/// A value guarded by an NSCondition: like `Locked`, and a thread can wait for it to change.
// @unchecked: `condition` guards `value`
final class Watched<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value under the lock, then wakes every waiter to look again.
    @discardableResult
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `predicate` holds or `timeout` seconds pass. Returns whether it holds.
    func wait(timeout: Double, until predicate: (Value) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(value) {
            if !condition.wait(until: deadline) { return predicate(value) }
        }
        return true
    }
}

extension URL {
    /// http://127.0.0.1:PORT
    static func loopback(port: UInt16) -> URL { http(host: "127.0.0.1", port: port) }

    /// http://HOST:PORT
    static func http(host: String, port: UInt16) -> URL {
        var parts = URLComponents()
        parts.scheme = "http"
        parts.host = host
        parts.port = Int(port)
        return parts.url ?? URL(fileURLWithPath: "/")
    }
}
