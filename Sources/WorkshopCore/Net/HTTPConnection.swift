import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection of `HTTPClient`: requests written in full, answers read by their
/// Content-Length, so that a kept-alive connection can carry the next request (or the next of
/// several sent at once). The socket never blocks: every wait is a `poll` until a deadline.
///
/// Not Sendable: one thread uses it at a time, and `close` (or the end of its life) closes the
/// socket once.
public final class HTTPConnection {
    public let limits: HTTPClient.Limits
    private var fd: Int32
    /// Read from the socket and not yet part of an answer: the start of the next one.
    private var buffer: [UInt8] = []
    /// Where each read lands before it joins `buffer`.
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Connects to `host:port` (an IPv4 address or a host name) within `limits.connectSeconds`,
    /// or by `deadline` (`monotonicSeconds()`) if that is sooner.
    ///
    /// - Parameter source: the local address to connect from: another loopback address
    ///   (127.0.0.2, ...) plays another machine of the room for a server on this one.
    public init(
        host: String, port: UInt16, limits: HTTPClient.Limits, from source: String? = nil, deadline: Double? = nil
    ) throws(HTTPClient.Failure) {
        self.limits = limits
        let due = min(deadline ?? .infinity, monotonicSeconds() + limits.connectSeconds)
        fd = try openSocket(to: host, port: port, from: source, deadline: due)
    }

    /// Every step within `timeout` seconds (see `HTTPClient.Limits.within`).
    public convenience init(host: String, port: UInt16, timeout: Double, from source: String? = nil)
        throws(HTTPClient.Failure)
    {
        try self.init(host: host, port: port, limits: .within(timeout), from: source)
    }

    deinit { close() }

    /// Closes the connection (once; later calls do nothing).
    public func close() {
        if fd >= 0 {
            closeDescriptor(fd)
            fd = -1
        }
    }

    /// True when the other end has neither closed the connection nor sent anything on it.
    public var isOpenAndQuiet: Bool {
        guard fd >= 0, buffer.isEmpty else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Sends `request` and reads one whole answer; throws `incomplete` for less.
    public func exchange(_ request: String) throws(HTTPClient.Failure) -> HTTPClient.Answer {
        let deadline = monotonicSeconds() + limits.wholeSeconds
        try send(Array(request.utf8), deadline: deadline)
        let answer = try readAnswer(deadline: deadline)
        guard answer.ending == .complete else { throw .incomplete(answer.ending) }
        return answer
    }

    /// Writes all of `bytes` by `deadline` (default: `limits.wholeSeconds` from now). A closed
    /// peer is an error, never SIGPIPE.
    public func send(_ bytes: [UInt8], deadline: Double? = nil) throws(HTTPClient.Failure) {
        guard fd >= 0 else { throw .closed }
        let due = deadline ?? monotonicSeconds() + limits.wholeSeconds
        var offset = 0
        while offset < bytes.count {
            guard try wait(for: Int16(POLLOUT), until: due) else { throw .timedOut(.whole) }
            let sent = bytes[offset...].withUnsafeBytes { Sockets.send(fd, $0) }
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                throw failure(errno)
            }
            offset += sent
        }
    }

    /// Reads one answer: its head, then its body until Content-Length bytes are in (without a
    /// Content-Length: until the other end closes), the other end closes, `maxAnswerBytes` are
    /// in, or the deadline (default: `limits.wholeSeconds` from now; the first byte within
    /// `limits.firstByteSeconds` too). What came of the body is the answer, its `ending` says
    /// why it ended; throws when no complete head came.
    public func readAnswer(deadline: Double? = nil) throws(HTTPClient.Failure) -> HTTPClient.Answer {
        let now = monotonicSeconds()
        let whole = min(deadline ?? .infinity, now + limits.wholeSeconds)
        let firstByte = min(whole, now + limits.firstByteSeconds)
        var head: (status: Int, headers: [String: String], bodyStart: Int)?
        var ending: HTTPClient.Ending?
        while true {
            if head == nil { head = try HTTPClient.head(of: buffer[...]) }
            let length = head?.headers["content-length"].flatMap(Int.init)
            if let head, let length, buffer.count - head.bodyStart >= length { ending = .complete }
            if let ending {
                guard let head else {
                    let empty = buffer.isEmpty
                    buffer.removeAll()
                    switch ending {
                    case .sizeCap: throw .notHTTP  // that much, and no head yet
                    case .deadline: throw .timedOut(empty ? .firstByte : .whole)
                    default: throw empty ? .closed : .notHTTP
                    }
                }
                let end = length.map { min(buffer.count, head.bodyStart + $0) } ?? buffer.count
                let body = Array(buffer[head.bodyStart..<end])
                buffer.removeFirst(end)
                return HTTPClient.Answer(
                    status: head.status, headers: head.headers, body: body, wireBytes: end, ending: ending)
            }
            if buffer.count >= limits.maxAnswerBytes {
                ending = .sizeCap
            } else if !(try wait(for: Int16(POLLIN), until: buffer.isEmpty ? firstByte : whole)) {
                ending = .deadline
            } else if try !fill(atMost: limits.maxAnswerBytes - buffer.count) {
                // Closed: the whole answer only when there was no Content-Length to wait for.
                ending = head != nil && length == nil ? .complete : .closed
            }
        }
    }

    /// Every byte until the other end closes the connection (or resets it), after what was read
    /// already: at most `maxAnswerBytes`, by `limits.wholeSeconds` from now.
    public func readToEnd() throws(HTTPClient.Failure) -> [UInt8] {
        let due = monotonicSeconds() + limits.wholeSeconds
        while buffer.count < limits.maxAnswerBytes {
            guard try wait(for: Int16(POLLIN), until: due) else { throw .timedOut(.whole) }
            if try !fill(atMost: limits.maxAnswerBytes - buffer.count) { break }
        }
        defer { buffer.removeAll() }
        return buffer
    }

    // MARK: The socket

    /// Reads what has arrived, at most `count` bytes, into `buffer`. False when the other end
    /// closed (or reset) the connection.
    private func fill(atMost count: Int) throws(HTTPClient.Failure) -> Bool {
        guard fd >= 0 else { return false }
        let room = min(count, chunk.count)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, room, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return true
            }
            if n == 0 || errno == ECONNRESET { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return true }  // nothing after all: poll again
            throw failure(errno)
        }
    }

    /// Whether the socket is ready for `events` before `deadline`.
    private func wait(for events: Int16, until deadline: Double) throws(HTTPClient.Failure) -> Bool {
        guard fd >= 0 else { throw .closed }
        return waitReady(fd, for: events, until: deadline)
    }
}

// MARK: Opening the socket

/// A connected non-blocking TCP socket to `host:port`, from `source` if given.
private func openSocket(to host: String, port: UInt16, from source: String?, deadline: Double)
    throws(HTTPClient.Failure) -> Int32
{
    guard let address = resolve(host, deadline: deadline) else {
        throw monotonicSeconds() >= deadline ? .timedOut(.connect) : .unknownHost
    }
    let fd = socket(AF_INET, Sockets.stream, 0)
    guard fd >= 0 else { throw .network(String(cString: strerror(errno))) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    Sockets.noSignalOnWrite(fd)
    var yes: Int32 = 1  // no Nagle delay: a request written in pieces goes out at once
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    func give(up failing: HTTPClient.Failure) -> HTTPClient.Failure {
        closeDescriptor(fd)
        return failing
    }
    if let source {
        guard let local = resolve(source, deadline: deadline),
            withSocketAddress(local, port: 0, { bind(fd, $0, $1) }) == 0
        else { throw give(up: .network("cannot connect from \(source): \(String(cString: strerror(errno)))")) }
    }
    if withSocketAddress(address, port: port, { connect(fd, $0, $1) }) == 0 { return fd }
    guard errno == EINPROGRESS || errno == EINTR else { throw give(up: failure(errno)) }
    guard waitReady(fd, for: Int16(POLLOUT), until: deadline) else { throw give(up: .timedOut(.connect)) }
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
    guard code == 0 else { throw give(up: failure(code)) }
    return fd
}

/// `body` called with `address:port` as a `sockaddr` (what bind(2) and connect(2) take).
private func withSocketAddress(
    _ address: in_addr, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
) -> Int32 {
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    socketAddress.sin_addr = address
    return withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

/// The IPv4 address of `host`: a dotted one as it is; a name through the system's resolver, on
/// a thread of its own, so that a resolver that hangs costs no more than the deadline. Nil when
/// the name is unknown or the deadline came first.
private func resolve(_ host: String, deadline: Double) -> in_addr? {
    var address = in_addr()
    if inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address) == 1 { return address }
    let found = Locked<in_addr?>(nil)  // Locked: written by the resolver's thread, read here
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Sockets.stream
        var list: UnsafeMutablePointer<addrinfo>?
        if getaddrinfo(host, nil, &hints, &list) == 0, let first = list, let socketAddress = first.pointee.ai_addr {
            let ipv4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            found.withLock { $0 = ipv4 }
        }
        if let list { freeaddrinfo(list) }
        done.signal()
    }
    guard done.wait(timeout: .now() + max(0, deadline - monotonicSeconds())) == .success else { return nil }
    return found.current
}

/// Whether `fd` is ready for `events` before `deadline`. An error on the socket counts as
/// ready: the next call says what it is.
private func waitReady(_ fd: Int32, for events: Int16, until deadline: Double) -> Bool {
    while true {
        let remaining = deadline - monotonicSeconds()
        if remaining <= 0 { return false }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, Int32(min(remaining * 1000, 3_600_000).rounded(.up)))
        if ready > 0 || (ready < 0 && errno != EINTR) { return true }
    }
}

private func failure(_ code: Int32) -> HTTPClient.Failure {
    switch code {
    case ECONNREFUSED: .refused
    case ETIMEDOUT: .timedOut(.connect)
    default: .network(String(cString: strerror(code)))
    }
}

/// `close(2)`, named apart from `HTTPConnection.close`.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
