// Exercise 04: ask for gzip and decode it yourself; throw on a corrupt, truncated or cut-short body.
// Check it: swift run workshop check 04
import WorkshopCore

/// What URLSession does for you without asking, by hand. The checks fetch the fixture
/// server's /xml/catalog with `RawHTTP`, a socket client that shows the response exactly as
/// it travelled: headers as sent, body still compressed. As shipped, nothing asks for gzip
/// and nothing decodes it.
public enum GzipByHand {
    /// The request headers to send: gzip when `acceptGzip`, the plain bytes otherwise.
    public static func requestHeaders(acceptGzip: Bool) -> [String: String] {
        // TODO(1): one header decides whether the server may compress.
        return [:]
    }

    /// The document: decoded when the server says it sent gzip, as it is otherwise. Throws,
    /// never returns garbage, when the body is not valid gzip or was cut short on the way.
    /// `response.headers` has lower-cased names.
    public static func decodedBody(of response: RawHTTP.Response) throws -> [UInt8] {
        // TODO(2): which header says the body is gzip? `Gzip.decompress` undoes it.
        // TODO(3): what if fewer bytes arrived than the server announced?
        return response.body
    }
}
