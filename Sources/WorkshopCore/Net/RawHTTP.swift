import Foundation

/// A minimal HTTP/1.1 GET on a plain socket, for seeing what URLSession hides: the exact
/// bytes on the wire, the headers as sent, a gzip body before anything decodes it.
/// Only for 127.0.0.1 and the fixture server (no TLS, no redirects, `Connection: close`).
/// It is `HTTPClient`, the workshop's one client, with lesson 04's names.
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

    /// GET `path` from 127.0.0.1:`port` with extra request headers. `timeout` bounds the
    /// connection and the whole answer; at most `HTTPClient.defaultMaxAnswerBytes` are read.
    public static func get(
        host: String = "127.0.0.1", port: UInt16, path: String,
        headers: [String: String] = [:], timeout: Double = 10
    ) throws -> Response {
        let answer: HTTPClient.Answer
        do {
            answer = try HTTPClient.request(
                "GET", host: host, port: port, target: path, headers: headers.map { ($0.key, $0.value) },
                limits: .within(timeout))
        } catch {
            throw Failure(description: "\(host):\(port): \(error)")
        }
        if answer.ending == .deadline {
            throw Failure(description: "\(host):\(port): the answer did not end within \(timeout) s")
        }
        return Response(
            status: answer.status, headers: answer.headers, body: answer.body, wireBytes: answer.wireBytes,
            truncated: answer.truncated || answer.ending == .sizeCap)
    }
}
