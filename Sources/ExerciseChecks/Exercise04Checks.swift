import Foundation
import WorkshopCore
import WorkshopServer

/// The checks of exercise 04 (Exercises/04-gzip-by-hand): asking for gzip and decoding it
/// by hand, and throwing on every broken body.
public enum Exercise04Checks {
    public typealias Headers = (Bool) -> [String: String]
    public typealias Decode = (RawHTTP.Response) throws -> [UInt8]

    /// Runs every check against a `requestHeaders` and a `decodedBody`.
    public static func run(headers: Headers, decode: Decode) -> [CheckResult] {
        let server = FixtureServer()
        do { try server.start() } catch {
            return [
                CheckResult(
                    name: "fixture server starts", passed: false, expected: localized("a server on 127.0.0.1"),
                    got: "\(error)", hint: 1)
            ]
        }
        defer { server.stop() }
        let document = XMLAPIs.catalog.body()
        func get(_ query: String = "", _ requestHeaders: [String: String]) -> Result<RawHTTP.Response, Error> {
            Result {
                try RawHTTP.get(
                    port: server.port, path: XMLAPIs.catalog.path + query, headers: requestHeaders, timeout: 5)
            }
        }
        func describe(_ result: Result<RawHTTP.Response, Error>) -> String {
            switch result {
            case .success(let r):
                localized(
                    format: "%1$d bytes, Content-Encoding: %2$@", r.body.count,
                    r.headers["content-encoding"] ?? localized("none"))
            case .failure(let e): localized(format: "no response: %@", "\(e)")
            }
        }
        /// What `decode` made of a response: the bytes, or the error it threw.
        func decoded(_ result: Result<RawHTTP.Response, Error>) -> Result<[UInt8], Error> {
            Result { try decode(try result.get()) }
        }
        func describe(_ result: Result<[UInt8], Error>) -> String {
            switch result {
            case .success(let bytes) where bytes == document: localized(format: "the document (%d bytes)", bytes.count)
            case .success(let bytes):
                bytes.starts(with: [0x1f, 0x8b])
                    ? localized(format: "%d bytes that are not the document (still gzip)", bytes.count)
                    : localized(format: "%d bytes that are not the document", bytes.count)
            case .failure(let error): localized(format: "an error: %@", "\(error)")
            }
        }
        func isError(_ result: Result<[UInt8], Error>) -> Bool {
            if case .failure = result { return true }
            return false
        }

        // The learner's headers, both ways.
        let askedGzip = get("", headers(true))
        let askedPlain = get("", headers(false))
        let gzipped = (try? askedGzip.get())?.headers["content-encoding"] == "gzip"
        let smaller = ((try? askedGzip.get())?.body.count ?? .max) < document.count * 3 / 10
        let plain =
            (try? askedPlain.get()).map { $0.headers["content-encoding"] == nil && $0.body == document } ?? false

        // Decoding, on responses fetched with the right headers (so these checks do not
        // depend on the first two).
        let gzipBody = decoded(get("", ["Accept-Encoding": "gzip"]))
        let identityBody = decoded(get("", ["Accept-Encoding": "identity"]))
        let corrupt = decoded(get("?fault=corrupt-gzip", ["Accept-Encoding": "gzip"]))
        let truncated = decoded(get("?fault=truncated-gzip", ["Accept-Encoding": "gzip"]))
        let dropped = decoded(get("?fault=drop", ["Accept-Encoding": "identity"]))

        return [
            CheckResult(
                name: "asks for gzip", passed: gzipped && smaller,
                expected: localized(
                    format: "Content-Encoding: gzip and under %d bytes of body", document.count * 3 / 10),
                got: describe(askedGzip), hint: 1),
            CheckResult(
                name: "asks for identity when told to", passed: plain,
                expected: localized(format: "the plain document (%d bytes, no Content-Encoding)", document.count),
                got: describe(askedPlain), hint: 1),
            CheckResult(
                name: "decodes a gzip body", passed: (try? gzipBody.get()) == document,
                expected: localized(format: "the document, byte for byte (%d bytes)", document.count),
                got: describe(gzipBody), hint: 2),
            CheckResult(
                name: "leaves an identity body alone", passed: (try? identityBody.get()) == document,
                expected: localized("the document, untouched"), got: describe(identityBody), hint: 2),
            CheckResult(
                name: "corrupt gzip is an error", passed: isError(corrupt),
                expected: localized("decodedBody throws"), got: describe(corrupt), hint: 3),
            CheckResult(
                name: "truncated gzip is an error", passed: isError(truncated),
                expected: localized("decodedBody throws"), got: describe(truncated), hint: 3),
            CheckResult(
                name: "a dropped connection is an error", passed: isError(dropped),
                expected: localized("decodedBody throws"), got: describe(dropped), hint: 3),
        ]
    }
}
