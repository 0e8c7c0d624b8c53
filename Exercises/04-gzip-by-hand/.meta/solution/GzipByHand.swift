// Exercise 04: ask for gzip and decode it yourself; throw on a corrupt, truncated or cut-short body.
// Check it: swift run workshop check 04
import WorkshopCore

/// What URLSession does for you without asking, by hand. The checks fetch the fixture
/// server's /xml/catalog with `RawHTTP`, a socket client that shows the response exactly as
/// it travelled: headers as sent, body still compressed. As shipped, nothing asks for gzip
/// and nothing decodes it.
public enum GzipByHand {
    struct CutShort: Error, CustomStringConvertible {
        let received: Int
        var description: String { "the connection ended after \(received) bytes of body, before Content-Length" }
    }

    /// The request headers to send: gzip when `acceptGzip`, the plain bytes otherwise.
    public static func requestHeaders(acceptGzip: Bool) -> [String: String] {
        ["Accept-Encoding": acceptGzip ? "gzip" : "identity"]
    }

    /// The document: decoded when the server says it sent gzip, as it is otherwise. Throws,
    /// never returns garbage, when the body is not valid gzip or was cut short on the way.
    /// `response.headers` has lower-cased names.
    public static func decodedBody(of response: RawHTTP.Response) throws -> [UInt8] {
        // Check first: a cut identity body would otherwise pass as a (short) document.
        if response.truncated { throw CutShort(received: response.body.count) }
        if response.headers["content-encoding"]?.lowercased() == "gzip" {
            return try Gzip.decompress(response.body)  // throws on corrupt or truncated gzip
        }
        return response.body
    }
}
