import WorkshopCore

public enum GzipByHand {
    struct ShortBody: Error, CustomStringConvertible {
        let received: Int
        let announced: Int
        var description: String { "\(received) of \(announced) bytes of body arrived" }
    }

    public static func requestHeaders(acceptGzip: Bool) -> [String: String] {
        acceptGzip ? ["Accept-Encoding": "gzip"] : [:]
    }

    public static func decodedBody(of response: RawHTTP.Response) throws -> [UInt8] {
        if let announced = response.headers["content-length"].flatMap({ Int($0) }), response.body.count < announced {
            throw ShortBody(received: response.body.count, announced: announced)
        }
        guard let encoding = response.headers["content-encoding"], encoding.lowercased().contains("gzip") else {
            return response.body
        }
        return try Gzip.decompress(response.body)
    }
}
