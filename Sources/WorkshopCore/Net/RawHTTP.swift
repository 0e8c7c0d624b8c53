import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 client on a plain socket, for seeing what URLSession hides: the exact
/// bytes on the wire, the headers as sent, a gzip body before anything decodes it.
/// Only for 127.0.0.1 and the fixture server (no TLS, no redirects, `Connection: close`).
public enum RawHTTP {
    public struct Response: Sendable {
        public var status: Int
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body exactly as it arrived (still gzip-compressed if it was sent that way).
        public var body: [UInt8]
        /// Every byte read from the socket: status line, headers and body.
        public var wireBytes: Int
        /// True when the connection ended before Content-Length bytes of body arrived.
        public var truncated: Bool
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// GET `path` from 127.0.0.1:`port` with extra request headers. `timeout` bounds every read.
    public static func get(
        host: String = "127.0.0.1", port: UInt16, path: String,
        headers: [String: String] = [:], timeout: Double = 10
    ) throws -> Response {
        let fd = try connect(host: host, port: port, timeout: timeout)
        defer { close(fd) }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw Failure(description: "could not send the request: \(String(cString: strerror(errno)))")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw Failure(description: "no data from \(host):\(port) for \(timeout) s")
                }
                if errno == ECONNRESET { break }  // the server reset the connection: keep what came
                throw Failure(description: "recv: \(String(cString: strerror(errno)))")
            }
            received.append(contentsOf: chunk[0..<n])
        }
        guard let headEnd = received.firstRange(of: [13, 10, 13, 10])?.lowerBound,
            let head = String(bytes: received[..<headEnd], encoding: .utf8)
        else {
            throw Failure(description: "the answer (\(received.count) bytes) has no complete HTTP head")
        }
        var lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.removeFirst().split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "malformed status line")
        }
        var parsed: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(received[(headEnd + 4)...])
        let declared = parsed["content-length"].flatMap(Int.init) ?? body.count
        return Response(
            status: status, headers: parsed, body: body, wireBytes: received.count,
            truncated: body.count < declared)
    }

    /// A connected TCP socket to `host:port` (its file descriptor), with `timeout` for reads and writes.
    /// `source` is the local address to connect from: another loopback address (127.0.0.2, ...)
    /// plays another machine of the room for a server on this one; nil lets the system pick.
    public static func connect(host: String, port: UInt16, timeout: Double, from source: String? = nil) throws -> Int32
    {
        let fd = socket(AF_INET, Sockets.stream, 0)
        guard fd >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        // Both ends the same way: an IPv4 address given to bind(2) or connect(2); -1 is its errno.
        func call(_ host: String, _ port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr(host)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        func fail(_ what: String) -> Failure {
            let reason = String(cString: strerror(errno))
            close(fd)
            return Failure(description: "\(what): \(reason)")
        }
        if let source {
            guard call(source, 0, { bind(fd, $0, $1) }) == 0 else { throw fail("cannot connect from \(source)") }
        }
        guard call(host, port, { connectSocket(fd, $0, $1) }) == 0 else {
            throw fail("cannot connect to \(host):\(port)")
        }
        return fd
    }
}

/// `connect(2)`, named apart from `RawHTTP.connect` (works with Glibc and Darwin alike).
private func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
