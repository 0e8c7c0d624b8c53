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

    struct State {
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

    let state: Watched<State>
    let routes: [(prefix: String, route: Route)]
    /// The server's own pages (the room's board), answered as they are: see `init`.
    let ownRoutes: [(prefix: String, route: Route)]
    /// The paths served in the room kept beyond the pool (`ServerKnobs.reservedConnections`).
    let priorityPaths: [String]
    /// Whether `stop()` has run; `pause` waits on it, so a stop wakes every paused response.
    let stopped = Watched(false)
    let threads = DispatchGroup()
    let onRequest: (@Sendable (RequestLogEntry) -> Void)?
    let onNotice: (@Sendable (String) -> Void)?

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

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Waits `seconds` or until `stop()`, whichever is first. Returns false when stopped.
    /// This is the server imitating a slow network, not one thread waiting for another.
    func pause(_ seconds: Double) -> Bool {
        guard seconds > 0 else { return !isStopped }
        return !stopped.wait(timeout: seconds) { $0 }
    }

    func notice(_ text: String) { onNotice?(text) }

    /// Gives the notice `text()` unless one about `subject` was given less than `noticeEvery` ago.
    func notice(about subject: String, _ text: () -> String) {
        let now = monotonicSeconds()
        let due = state.withLock { s -> Bool in
            if let last = s.noticedAt[subject], now - last < Self.noticeEvery { return false }
            if s.noticedAt.count > 4096 { s.noticedAt = s.noticedAt.filter { now - $0.value < Self.noticeEvery } }
            s.noticedAt[subject] = now
            return true
        }
        if due { notice(text()) }
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
