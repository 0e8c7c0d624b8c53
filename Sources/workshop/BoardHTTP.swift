import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One POST to the room's board on a plain socket, bounded in time and in size, whatever the
/// other end does: it may be a board, or anything else on the room's network.
///
/// Why not URLSession: it reads a whole answer before it hands it over (a board answering
/// 10 MB held `join` for 11-25 s), follows redirects (on Linux, a server that redirects to
/// itself traps a delegate session), takes the proxy of `http_proxy` for an address on the
/// room's network, and takes a moment to set up (a check waits for the board 0.3 s at most).
/// Here: one deadline for everything (the name, the connection, the request, the answer), at
/// most `maxAnswerBytes` read, no redirect followed, no proxy.
enum BoardHTTP {
    /// What is read of any answer, head and body together: a board's answer is a few dozen bytes.
    static let maxAnswerBytes = 4096

    struct Answer: Equatable {
        var status: Int
        /// Lower-cased names.
        var headers: [String: String]
        /// What came of the body, at most `maxAnswerBytes` less the head.
        var body: [UInt8]
    }

    enum Failure: Error, Equatable {
        /// No answer (or not a whole head) before the deadline.
        case noAnswer
        case refused
        case unknownHost
        /// The network said no (unreachable, reset, ...): its words.
        case network(String)
        /// What came back is not HTTP.
        case notHTTP
        /// The other end closed the connection without a word.
        case closed
    }

    /// POSTs `body` as JSON to `url` (http only), waiting until `deadline` (`monotonicSeconds()`)
    /// at most for all of it.
    static func post(_ body: [UInt8], to url: URL, deadline: Double) -> Result<Answer, Failure> {
        guard let host = url.host, !host.isEmpty else { return .failure(.unknownHost) }
        let port = UInt16(clamping: url.port ?? 80)
        guard let address = resolve(host, deadline: deadline) else {
            return .failure(monotonicSeconds() >= deadline ? .noAnswer : .unknownHost)
        }
        let fd = socket(AF_INET, Sockets.stream, 0)
        guard fd >= 0 else { return .failure(.network(String(cString: strerror(errno)))) }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        Sockets.noSignalOnWrite(fd)
        if let failure = connect(fd, to: address, port: port, deadline: deadline) { return .failure(failure) }

        let target = url.path.isEmpty ? "/" : url.path
        let head =
            "POST \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        if let failure = write(Array(head.utf8) + body, to: fd, deadline: deadline) { return .failure(failure) }
        return read(fd, deadline: deadline)
    }

    // MARK: The steps, each until the deadline

    /// The IPv4 address of `host`: a dotted one as it is; a name through the system's resolver,
    /// on a thread of its own, so that a resolver that hangs costs no more than the deadline.
    private static func resolve(_ host: String, deadline: Double) -> in_addr? {
        var address = in_addr()
        if inet_pton(AF_INET, host, &address) == 1 { return address }
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

    /// Connects the non-blocking socket; nil when connected.
    private static func connect(_ fd: Int32, to address: in_addr, port: UInt16, deadline: Double) -> Failure? {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        socketAddress.sin_addr = address
        let started = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connectSocket(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if started == 0 { return nil }
        guard errno == EINPROGRESS || errno == EINTR else { return failure(errno) }
        guard wait(fd, for: Int16(POLLOUT), deadline: deadline) else { return .noAnswer }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        return code == 0 ? nil : failure(code)
    }

    private static func write(_ bytes: [UInt8], to fd: Int32, deadline: Double) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            guard wait(fd, for: Int16(POLLOUT), deadline: deadline) else { return .noAnswer }
            let sent = bytes[offset...].withUnsafeBytes { Sockets.send(fd, $0) }
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return failure(errno)
            }
            offset += sent
        }
        return nil
    }

    /// Reads the answer: until the whole body Content-Length announces is in, the other end
    /// closes, `maxAnswerBytes` are in, or the deadline.
    private static func read(_ fd: Int32, deadline: Double) -> Result<Answer, Failure> {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: maxAnswerBytes)
        var ended = false
        while received.count < maxAnswerBytes {
            if let answer = parse(received),
                answer.body.count >= (answer.headers["content-length"].flatMap(Int.init) ?? .max)
            {
                return .success(answer)
            }
            guard wait(fd, for: Int16(POLLIN), deadline: deadline) else { break }
            let room = maxAnswerBytes - received.count
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, room, 0) }
            if count > 0 {
                received += chunk[0..<count]
            } else if count == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                ended = true  // the end, or a reset: what came is what there is
                break
            }
        }
        guard let answer = parse(received) else {
            if received.count >= maxAnswerBytes { return .failure(.notHTTP) }  // 4 KB and no head yet
            if !ended { return .failure(.noAnswer) }
            return .failure(received.isEmpty ? .closed : .notHTTP)
        }
        return .success(answer)
    }

    /// The status, the headers and what came of the body, once the head is complete.
    static func parse(_ bytes: [UInt8]) -> Answer? {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
            (100...599).contains(status)
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: Array(bytes[end.upperBound...]))
    }

    /// Whether `fd` is ready for `events` before the deadline.
    private static func wait(_ fd: Int32, for events: Int16, deadline: Double) -> Bool {
        while true {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32((remaining * 1000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }  // the next call says what is wrong
        }
    }

    private static func failure(_ code: Int32) -> Failure {
        switch code {
        case ECONNREFUSED: .refused
        case ETIMEDOUT: .noAnswer
        default: .network(String(cString: strerror(code)))
        }
    }

    // MARK: What the board said, made safe for a terminal

    /// At most this many characters of a board's reason are shown.
    static let maxReasonCharacters = 160

    /// The first line of what a board said, as plain text for the learner's terminal: escape
    /// sequences and every other control or invisible formatting character taken out (a board
    /// that sends ESC sequences could set the terminal's title, clear the screen or worse), at
    /// most `maxReasonCharacters`. Empty when nothing printable is left.
    static func reason(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(maxAnswerBytes), as: UTF8.self)
            // OSC (ESC ] or its 8-bit form, up to BEL or ST), then CSI (ESC [ or its 8-bit form, up
            // to a final character), then ESC and the one character after it.
            .replacingOccurrences(
                of: #"(\x{1B}\]|\x{9D})[^\x{07}\x{1B}\x{9C}]*(\x{07}|\x{1B}\\|\x{9C})?"#, with: "",
                options: .regularExpression
            )
            .replacingOccurrences(of: #"(\x{1B}\[|\x{9B})[0-?]*[ -/]*[@-~]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\x{1B}."#, with: "", options: .regularExpression)
        let line =
            text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { String($0.unicodeScalars.filter(isShown)) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? ""
        guard line.count > maxReasonCharacters else { return line }
        return String(line.prefix(maxReasonCharacters - 1)) + "…"
    }

    /// Not a control character (C0, DEL, C1) nor an invisible format character (bidi overrides,
    /// zero-width ones): the rest is shown as it is.
    private static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: false
        default: true
        }
    }
}

/// `connect(2)`, named apart from `BoardHTTP.connect`.
private func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
