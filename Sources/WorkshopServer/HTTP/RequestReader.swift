import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads HTTP/1.1 requests off one connection, one at a time, within size limits and a
/// deadline. Bytes that arrive after one request (a pipelined next one) are kept for the next
/// call, so a kept-alive connection loses nothing.
struct RequestReader {
    enum Outcome {
        case request(HTTPRequest)
        /// The client closed the connection (or the server stopped) before a complete request.
        case closed
        /// The deadline passed; `startedRequest` tells whether any byte of a request had arrived.
        case timedOut(startedRequest: Bool)
        /// Not a request this server takes: answer `status` with `reason` (English: the response
        /// is an API), then close; `logged` is the reason in the language the log speaks.
        case refused(status: Int, reason: String, logged: String)

        /// A refusal whose reason is `english` filled in, and its translation for the log.
        static func refusal(_ status: Int, _ english: String, _ arguments: any CVarArg...) -> Outcome {
            .refused(
                status: status, reason: String(format: english, locale: nil, arguments: arguments),
                logged: String(format: localized(english), locale: nil, arguments: arguments))
        }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Where the head ends: the first empty line, "\r\n\r\n" as HTTP says, or "\n\n" as a
    /// request typed into `nc` without `-C` has it. `headEnd` excludes the last line's line feed.
    static func emptyLine(in bytes: [UInt8], from start: Int) -> (headEnd: Int, bodyStart: Int)? {
        var i = start
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count, bytes[i + 1] == 10 { return (i, i + 2) }
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { return (i, i + 3) }
            }
            i += 1
        }
        return nil
    }

    init(fd: Int32) { self.fd = fd }

    /// The next request, or why there is none. `deadline` is on the `monotonicSeconds()` clock and
    /// bounds the whole request (head and body), however slowly its bytes arrive; until its first
    /// byte has come, `firstByteDeadline` (if earlier) bounds the wait instead.
    mutating func next(
        deadline: Double, firstByteDeadline: Double? = nil, maxHeadBytes: Int, maxBodyBytes: Int
    ) -> Outcome {
        var searchFrom = 0
        var headEnd: Int?
        var bodyStart = 0
        while headEnd == nil {
            // Empty lines before a request line are ignored (RFC 9112, section 2.2).
            let before = buffer.count
            if let start = buffer.firstIndex(where: { $0 != 13 && $0 != 10 }) {
                buffer.removeFirst(start)
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
            if buffer.count != before { searchFrom = 0 }
            if let found = Self.emptyLine(in: buffer, from: searchFrom) {
                headEnd = found.headEnd
                bodyStart = found.bodyStart
                break
            }
            if buffer.count > maxHeadBytes + 3 {
                return .refusal(431, "the request line and headers are over %d bytes", maxHeadBytes)
            }
            searchFrom = max(0, buffer.count - 2)
            let waitUntil = buffer.isEmpty ? min(deadline, firstByteDeadline ?? deadline) : deadline
            switch fill(deadline: waitUntil) {
            case .data: continue
            case .end: return .closed
            case .timeout: return .timedOut(startedRequest: !buffer.isEmpty)
            }
        }
        guard let end = headEnd else { return .closed }
        if end > maxHeadBytes {
            return .refusal(431, "the request line and headers are over %d bytes", maxHeadBytes)
        }
        guard let head = String(bytes: buffer[..<end], encoding: .utf8), var request = HTTPRequest.parseHead(head)
        else {
            return .refusal(400, "not an HTTP/1.x request (a request line 'GET /path HTTP/1.1', then headers)")
        }
        if request.header("transfer-encoding") != nil {
            return .refusal(501, "request bodies in Transfer-Encoding are not supported; send Content-Length")
        }
        var expected = 0
        if let length = request.header("content-length") {
            guard !length.isEmpty, length.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(length) else {
                return .refusal(400, "Content-Length is not a number: '%@'", String(length.prefix(40)))
            }
            expected = value
        }
        if expected > maxBodyBytes {
            return .refusal(413, "the request body is over %d bytes", maxBodyBytes)
        }
        buffer.removeFirst(bodyStart)
        while buffer.count < expected {
            switch fill(deadline: deadline) {
            case .data: continue
            case .end: return .closed
            case .timeout: return .timedOut(startedRequest: true)
            }
        }
        request.body = Array(buffer.prefix(expected))
        buffer.removeFirst(expected)
        return .request(request)
    }

    private enum Fill {
        case data
        case end
        case timeout
    }

    /// Waits for bytes until `deadline`; appends what arrives to `buffer`.
    private mutating func fill(deadline: Double) -> Fill {
        while true {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return .timeout }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32((min(remaining, 3600) * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .end
            }
            if ready == 0 { continue }  // the loop checks the deadline again
            let count = chunk.count
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return .data
            }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            return .end  // 0: the client closed; < 0: reset, or shut down by stop()
        }
    }
}
