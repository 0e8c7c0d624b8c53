import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the fixture server takes and keeps connections: the room's defences. Each connection
/// gets a thread of its own, within `maxConnections` (then a quick 503, or a close when too
/// many wait for theirs), at most `maxConnectionsPerAddress` from one address, the room kept
/// for the priority paths, and the read timeouts (408, or a silent connection closed).
/// What a request then gets is `respond(to:on:from:)` (FixtureServer+LessonAPI.swift).
extension FixtureServer {
    enum Role {
        case serve
        /// In the room kept for the priority paths: one request, and only to one of them.
        case serveReserved
        case reject
        case closeAtOnce
        /// From an address that holds `maxConnectionsPerAddress` already.
        case overAddressLimit
    }

    func acceptLoop(_ listenFD: Int32) {
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
    func configure(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        Sockets.noSignalOnWrite(fd)
        let seconds = max(1, state.withLock { $0.knobs.readTimeoutSeconds })
        var wait = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One connection: requests one after another while the client keeps it alive. A `reserved`
    /// one (in the room kept beyond the pool) takes one request, for a priority path only.
    func serveConnection(_ fd: Int32, from client: String, reserved: Bool) {
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
    func serveReserved(_ request: HTTPRequest, on fd: Int32, from client: String) {
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
    func reject(_ fd: Int32, from client: String, limit: Int) {
        var response = HTTPResponse.text(503, "the server is busy: \(limit) connections open. Try again in a moment.")
        response.headers.append(("Retry-After", "1"))
        let (written, _) = send(fd, response, keepAlive: false)
        state.withLock { $0.stats.wireBytes += written }
        notice(localized(format: "503 to %1$@: %2$d connections open (the limit), connection closed", client, limit))
        closeGently(fd)
    }

    /// Answers a request the server will not take (`reason`, in English: the response is an
    /// API), then closes the connection; the log says `logged`.
    func refuse(_ fd: Int32, status: Int, _ reason: String, logged: String, from client: String) {
        let (written, _) = send(fd, .text(status, reason), keepAlive: false)
        state.withLock { $0.stats.wireBytes += written }
        notice(localized(format: "%1$d to %2$@: %3$@; connection closed", status, client, logged))
        closeGently(fd)
    }

    /// Ends our side, then reads and drops what the client still sends, for at most a second:
    /// closing with unread bytes would reset the connection, and the client could lose the answer.
    func closeGently(_ fd: Int32) {
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
}

/// "10 s", "0.5 s" (in Japanese "10 秒", unless `english`: what a response says stays English).
private func seconds(_ value: Double, english: Bool = false) -> String {
    let number = value == value.rounded() ? "\(Int(value))" : "\(value)"
    return english ? "\(number) s" : localized(format: "%@ s", number)
}
