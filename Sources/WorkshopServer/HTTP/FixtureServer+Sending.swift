import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing an answer on a connection: head and body, paced at a link's bandwidth, and broken
/// the way a `drop` or `stall` fault says.
extension FixtureServer {
    /// Writes the response, pacing the body at `bandwidth` bytes/s. Returns the bytes written,
    /// and whether all that was meant to go out did (a `drop` fault means half the body).
    func send(
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
    func write(_ fd: Int32, _ bytes: [UInt8]) -> Int {
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
    func waitForHangUp(_ fd: Int32) {
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
