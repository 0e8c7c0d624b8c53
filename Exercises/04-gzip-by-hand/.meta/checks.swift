import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer

/// The checks of exercise 04 (Exercises/04-gzip-by-hand): asking for gzip and decoding it
/// by hand, and throwing on every broken body.
public enum Exercise04Checks {
    public typealias Headers = (Bool) -> [String: String]
    public typealias Decode = (RawHTTP.Response) throws -> [UInt8]

    /// The document the checks fetch (/xml/catalog), and the most its gzip body may weigh.
    static let documentBytes = XMLAPIs.catalog.body().count
    static let gzipLimit = documentBytes * 3 / 10

    // The checks, in the order they report: each declared once, in both languages.
    static let asksForGzip = Check(
        "asks for gzip", ja: "gzip を求める",
        wanted: "Content-Encoding: gzip and under \(gzipLimit) bytes of body",
        ja: "Content-Encoding: gzip で、ボディが \(gzipLimit) バイト未満", hint: 1)
    static let asksForIdentity = Check(
        "asks for identity when told to", ja: "指定されたら identity を求める",
        wanted: "the plain document (\(documentBytes) bytes, no Content-Encoding)",
        ja: "圧縮なしの文書（\(documentBytes) バイト、Content-Encoding なし）", hint: 1)
    static let decodesGzip = Check(
        "decodes a gzip body", ja: "gzip のボディを展開する",
        wanted: "the document, byte for byte (\(documentBytes) bytes)",
        ja: "元の文書とバイト単位で一致（\(documentBytes) バイト）", hint: 2)
    static let leavesIdentity = Check(
        "leaves an identity body alone", ja: "identity のボディには手を加えない",
        wanted: "the document, untouched", ja: "文書に手を加えない", hint: 2)
    static let corruptIsError = Check(
        "corrupt gzip is an error", ja: "壊れた gzip はエラーになる",
        wanted: "decodedBody throws", ja: "decodedBody がエラーを投げる", hint: 3)
    static let truncatedIsError = Check(
        "truncated gzip is an error", ja: "途中で切れた gzip はエラーになる",
        wanted: "decodedBody throws", ja: "decodedBody がエラーを投げる", hint: 3)
    static let droppedIsError = Check(
        "a dropped connection is an error", ja: "切れた接続はエラーになる",
        wanted: "decodedBody throws", ja: "decodedBody がエラーを投げる", hint: 3)
    public static let all = [
        asksForGzip, asksForIdentity, decodesGzip, leavesIdentity, corruptIsError, truncatedIsError, droppedIsError,
    ]

    /// Runs every check against a `requestHeaders` and a `decodedBody`.
    public static func run(headers: Headers, decode: Decode) -> [CheckResult] {
        let server = FixtureServer()
        do { try server.start() } catch {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
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
                    format: "%1$d bytes, Content-Encoding: %2$@", ja: "%1$d バイト、Content-Encoding: %2$@", r.body.count,
                    r.headers["content-encoding"] ?? localized("none", ja: "なし"))
            case .failure(let e): localized(format: "no response: %@", ja: "応答がありません:「%@」", "\(e)")
            }
        }
        /// What `decode` made of a response: the bytes, or the error it threw.
        func decoded(_ result: Result<RawHTTP.Response, Error>) -> Result<[UInt8], Error> {
            Result { try decode(try result.get()) }
        }
        func describe(_ result: Result<[UInt8], Error>) -> String {
            switch result {
            case .success(let bytes) where bytes == document:
                localized(format: "the document (%d bytes)", ja: "元の文書（%d バイト）", bytes.count)
            case .success(let bytes):
                bytes.starts(with: [0x1f, 0x8b])
                    ? localized(
                        format: "%d bytes that are not the document (still gzip)", ja: "元の文書ではない %d バイト（gzip のまま）",
                        bytes.count)
                    : localized(format: "%d bytes that are not the document", ja: "元の文書ではない %d バイト", bytes.count)
            case .failure(let error): localized(format: "an error: %@", ja: "エラー:「%@」", "\(error)")
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
        let smaller = ((try? askedGzip.get())?.body.count ?? .max) < gzipLimit
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
            asksForGzip.result(gzipped && smaller, got: describe(askedGzip)),
            asksForIdentity.result(plain, got: describe(askedPlain)),
            decodesGzip.result((try? gzipBody.get()) == document, got: describe(gzipBody)),
            leavesIdentity.result((try? identityBody.get()) == document, got: describe(identityBody)),
            corruptIsError.result(isError(corrupt), got: describe(corrupt)),
            truncatedIsError.result(isError(truncated), got: describe(truncated)),
            droppedIsError.result(isError(dropped), got: describe(dropped)),
        ]
    }
}
