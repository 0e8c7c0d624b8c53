import WorkshopCore

/// Exercise 04: do by hand what URLSession does for you without asking.
///
/// The checks fetch the fixture server's /xml/catalog with `RawHTTP`, a plain socket client
/// that shows the response exactly as it travelled: headers as sent, body still compressed.
///
/// As shipped, nothing asks for gzip and nothing decodes it. Make it:
///   1. `requestHeaders(acceptGzip: true)` asks the server for gzip, as the article did;
///      `requestHeaders(acceptGzip: false)` asks for the plain bytes.
///   2. `decodedBody(of:)` returns the document: decoded when the server says it sent gzip,
///      as it is otherwise.
///   3. `decodedBody(of:)` throws, never returns garbage, when the body is not valid gzip or
///      was cut short on the way.
///
/// Check your work:  swift test --filter Exercise04
public enum GzipByHand {
    /// The request headers to send, e.g. ["Accept-Encoding": "..."].
    public static func requestHeaders(acceptGzip: Bool) -> [String: String] {
        // TODO: one header decides whether the server may compress.
        return [:]
    }

    /// The body as the application wants it. `response.headers` has lower-cased names.
    public static func decodedBody(of response: RawHTTP.Response) throws -> [UInt8] {
        // TODO: which header says the body is gzip? `Gzip.decompress` undoes it.
        // TODO: what if fewer bytes arrived than the server announced?
        return response.body
    }
}
