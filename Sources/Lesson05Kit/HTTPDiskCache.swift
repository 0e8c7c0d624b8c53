import Foundation
import WorkshopCore

/// A response kept on disk between launches, with what HTTP said about reusing it.
public struct CachedResponse: Sendable, Equatable {
    /// The server's validator: sent back as If-None-Match to ask "has it changed?".
    public var etag: String?
    /// From `Cache-Control: max-age=N`: how long the response may be reused without asking.
    public var maxAgeSeconds: Int?
    /// When it was received or last revalidated. Wall-clock time, because it must mean the
    /// same thing after the app (and its monotonic clock) restarts.
    public var storedAt: Date
    public var body: [UInt8]

    public init(etag: String?, maxAgeSeconds: Int?, storedAt: Date, body: [UInt8]) {
        self.etag = etag
        self.maxAgeSeconds = maxAgeSeconds
        self.storedAt = storedAt
        self.body = body
    }

    /// True while max-age has not run out: it may be used without any request.
    public func isFresh(at now: Date) -> Bool {
        guard let maxAge = maxAgeSeconds else { return false }
        let age = now.timeIntervalSince(storedAt)
        return age >= 0 && age < Double(maxAge)
    }
}

/// A small HTTP cache on disk, one file per URL, that survives a relaunch.
///
/// Why not `URLCache`? On Linux (swift-corelibs-foundation, measured with Swift 6.3.1)
/// URLSession stores no HTTP response in it, not even a fresh GET without `Vary`:
/// `_HTTPURLProtocol` hands every response over with `cacheStoragePolicy: .notAllowed`. It
/// serves an entry an app stored itself only while it is fresh and has no `Vary`
/// (`canCache`), and the fixture server sends `Vary: Accept-Encoding` with every gzip
/// answer; and it never revalidates (no If-None-Match: a stale entry is removed and fetched
/// again in full). So the lesson keeps its own.
///
/// A file is one line of JSON (ETag, max-age, when stored, body length, body checksum), a
/// newline, then the body. A file that does not parse, or whose body is cut short, too long
/// or changed, is treated as absent and removed: a cache may forget, it must never serve
/// wrong bytes and never crash the app.
public struct HTTPDiskCache: Sendable {
    public let directory: URL

    private struct Header: Codable {
        var etag: String?
        var maxAgeSeconds: Int?
        var storedAt: Double
        var bodyLength: Int
        var bodyChecksum: String
    }

    /// Uses `directory`, made on the first `store`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file that holds the response for `url`.
    public func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(fnv1a(Array(url.absoluteString.utf8)) + ".cache")
    }

    /// The stored response for `url`, or nil when there is none or the file is damaged.
    public func load(for url: URL) -> CachedResponse? {
        let file = fileURL(for: url)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let bytes = Array(data)
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline]))
        else {
            remove(for: url)
            return nil
        }
        let body = Array(bytes[(newline + 1)...])
        guard body.count == header.bodyLength, fnv1a(body) == header.bodyChecksum else {
            remove(for: url)
            return nil
        }
        return CachedResponse(
            etag: header.etag, maxAgeSeconds: header.maxAgeSeconds,
            storedAt: Date(timeIntervalSince1970: header.storedAt), body: body)
    }

    /// Stores `response` for `url`. The file is written whole and then renamed into place, so
    /// a crash mid-write leaves the old file or none, never half of one.
    public func store(_ response: CachedResponse, for url: URL) throws {
        let header = Header(
            etag: response.etag, maxAgeSeconds: response.maxAgeSeconds,
            storedAt: response.storedAt.timeIntervalSince1970,
            bodyLength: response.body.count, bodyChecksum: fnv1a(response.body))
        var data = try JSONEncoder().encode(header)
        data.append(0x0A)
        data.append(contentsOf: response.body)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: fileURL(for: url), options: .atomic)
    }

    public func remove(for url: URL) {
        try? FileManager.default.removeItem(at: fileURL(for: url))
    }
}
