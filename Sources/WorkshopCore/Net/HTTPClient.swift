import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The workshop's one HTTP/1.1 client, on a plain socket: lesson 04's `RawHTTP`, the load
/// check, the tests, and `workshop`'s posts to the room's board all send and read through it.
/// It is bounded whatever the other end does (a fixture server, a board, or anything else on
/// the room's network):
///
/// - deadlines: one to connect (a host name is resolved on a thread of its own, so a resolver
///   that hangs costs no more than that), one for the answer's first byte, one for the whole;
/// - at most `Limits.maxAnswerBytes` read for one answer, head and body together;
/// - no redirect followed, no proxy, no TLS: this is for 127.0.0.1 and the room's network.
///
/// It shows what URLSession hides: the bytes as they travelled (a gzip body is not decoded),
/// and every byte read. What a person is shown of an answer goes through `HTTPText.plainLine`,
/// which takes out escape sequences and every other control character first.
public enum HTTPClient {
    /// The most read of one answer unless a caller says otherwise: far more than any answer of
    /// the fixture server or the tutorials' site, and still a bound.
    public static let defaultMaxAnswerBytes = 64 * 1024 * 1024

    /// How long each step may take, and how much is read.
    public struct Limits: Sendable, Equatable {
        /// Seconds to resolve the name and connect.
        public var connectSeconds: Double
        /// Seconds from the request written to the answer's first byte.
        public var firstByteSeconds: Double
        /// Seconds for everything: from the start of a one-off `HTTPClient.request` (the name,
        /// the connection, the request, the answer), or from the start of one `send` or one
        /// read on a kept connection.
        public var wholeSeconds: Double
        /// The most bytes read for one answer, head and body together.
        public var maxAnswerBytes: Int

        public init(
            connectSeconds: Double, firstByteSeconds: Double, wholeSeconds: Double,
            maxAnswerBytes: Int = HTTPClient.defaultMaxAnswerBytes
        ) {
            self.connectSeconds = connectSeconds
            self.firstByteSeconds = firstByteSeconds
            self.wholeSeconds = wholeSeconds
            self.maxAnswerBytes = maxAnswerBytes
        }

        /// Every step, and the whole, within `seconds`.
        public static func within(_ seconds: Double, maxAnswerBytes: Int = HTTPClient.defaultMaxAnswerBytes) -> Limits {
            Limits(
                connectSeconds: seconds, firstByteSeconds: seconds, wholeSeconds: seconds,
                maxAnswerBytes: maxAnswerBytes)
        }
    }

    /// How the reading of an answer ended.
    public enum Ending: Sendable, Equatable {
        /// Every byte of the body Content-Length announced (without one: everything until the
        /// other end closed the connection).
        case complete
        /// The other end closed (or reset) the connection before the body was complete.
        case closed
        /// `maxAnswerBytes` were read: the rest was left unread.
        case sizeCap
        /// The deadline came before the body was complete.
        case deadline
    }

    /// An answer: its head, and what came of its body.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        /// Names lower-cased; values trimmed.
        public var headers: [String: String]
        /// The body exactly as it arrived (still gzip-compressed if it was sent that way).
        public var body: [UInt8]
        /// Every byte read for this answer: status line, headers and body.
        public var wireBytes: Int
        public var ending: Ending

        /// True when fewer body bytes came than Content-Length announced.
        public var truncated: Bool { headers["content-length"].flatMap(Int.init).map { body.count < $0 } ?? false }
    }

    public enum Step: String, Sendable, Equatable {
        case connect = "a connection"
        case firstByte = "an answer"
        case whole = "the whole answer"
    }

    /// Why there is no answer. The words are the client's own (and the system's, for `network`),
    /// never what the other end sent.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownHost
        case refused
        /// No connection, no answer or not all of it before that step's deadline.
        case timedOut(Step)
        /// The network said no (unreachable, reset while sending, ...): the system's words.
        case network(String)
        /// What came back is not an HTTP/1.x answer.
        case notHTTP
        /// The other end closed the connection without a word.
        case closed
        /// An answer came, but not all of it (`exchange` wants all of it).
        case incomplete(Ending)

        public var description: String {
            switch self {
            case .unknownHost: "unknown host"
            case .refused: "connection refused"
            case .timedOut(let step): "no \(step.rawValue) in time"
            case .network(let words): words
            case .notHTTP: "the answer is not HTTP"
            case .closed: "the connection was closed without an answer"
            case .incomplete(.closed): "the server closed the connection mid-answer"
            case .incomplete(.sizeCap): "the answer is larger than the client reads"
            case .incomplete: "the answer did not end in time"
            }
        }
    }

    /// One request on a new connection (`Connection: close`), everything within `limits`
    /// counted from now: the name, the connection, the request, the answer. Returns the answer
    /// as far as it came (see `Answer.ending`); throws when no complete head came.
    ///
    /// - Parameters:
    ///   - source: the local address to connect from: another loopback address (127.0.0.2, ...)
    ///     plays another machine of the room for a server on this one; nil lets the system pick.
    public static func request(
        _ method: String, host: String, port: UInt16, target: String, headers: [(String, String)] = [],
        body: [UInt8] = [], limits: Limits, from source: String? = nil
    ) throws(Failure) -> Answer {
        let deadline = monotonicSeconds() + limits.wholeSeconds
        let connection = try HTTPConnection(host: host, port: port, limits: limits, from: source, deadline: deadline)
        defer { connection.close() }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        try connection.send(Array(head.utf8) + body, deadline: deadline)
        return try connection.readAnswer(deadline: deadline)
    }

    /// The status and headers of `bytes` once they hold a whole head, and where its body
    /// starts; nil while the head is not complete. Throws `notHTTP` for a complete head whose
    /// first line is not an HTTP/1.x status line.
    static func head(of bytes: ArraySlice<UInt8>) throws(Failure) -> (
        status: Int, headers: [String: String], bodyStart: Int
    )? {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
            (100...599).contains(status)
        else { throw .notHTTP }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers, end.upperBound)
    }
}
