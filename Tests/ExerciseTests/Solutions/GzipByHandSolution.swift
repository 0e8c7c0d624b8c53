import WorkshopCore

/// Reference solution of exercise 04. Kept under Tests/ so a learner does not stumble on it.
enum GzipByHandSolution {
    struct CutShort: Error, CustomStringConvertible {
        let received: Int
        var description: String { "the connection ended after \(received) bytes of body, before Content-Length" }
    }

    static func requestHeaders(acceptGzip: Bool) -> [String: String] {
        ["Accept-Encoding": acceptGzip ? "gzip" : "identity"]
    }

    static func decodedBody(of response: RawHTTP.Response) throws -> [UInt8] {
        // Check first: a cut identity body would otherwise pass as a (short) document.
        if response.truncated { throw CutShort(received: response.body.count) }
        if response.headers["content-encoding"]?.lowercased() == "gzip" {
            return try Gzip.decompress(response.body)  // throws on corrupt or truncated gzip
        }
        return response.body
    }
}
