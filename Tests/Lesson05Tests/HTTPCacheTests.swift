import Foundation
import Lesson05Kit
import Testing
import WorkshopCore
import WorkshopServer

/// Part 2: the on-disk HTTP cache and revalidation, against the real fixture server, which
/// counts what it was asked and what it wrote.
@Suite(.serialized) final class HTTPCacheTests {
    let server: FixtureServer
    let baseURL: URL
    let directory: URL
    let url: URL

    init() throws {
        server = FixtureServer(knobs: ServerKnobs(etags: true, maxAgeSeconds: 300))
        baseURL = try server.start()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lesson05-cache-\(UUID().uuidString)")
        url = URL(string: baseURL.absoluteString + "/orders?count=400&products=1000")!
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func fetcher(laterBy seconds: Double = 0) throws -> RevalidatingFetcher {
        RevalidatingFetcher(
            cache: HTTPDiskCache(directory: directory), timeout: 10,
            now: { Date().addingTimeInterval(seconds) })
    }

    var expectedBody: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try! encoder.encode(CatalogAPI.orders(count: 400, products: 1000)))
    }

    /// Bodies are compared by fingerprint, so that a failure prints two short hashes rather
    /// than two arrays of 15,000 bytes.
    var expected: String { fnv1a(expectedBody) }

    @Test func theSecondLaunchMakesZeroFullDownloads() throws {
        let first = try fetcher().get(url)
        #expect(first.source == .downloaded)
        #expect(fingerprint(first.body) == expected)
        // The server counts a response's bytes once its write has returned, which can be a
        // moment after the client has them all (seen on a busy machine: 0 bytes read here).
        #expect(server.waitForStats(timeout: 10) { $0.responses >= 1 })
        let afterFirst = server.stats
        #expect(afterFirst.requests == 1)

        // Second launch, a new fetcher on the same folder: within max-age, no request at all.
        let second = try fetcher().get(url)
        #expect(second.source == .fresh)
        #expect(fingerprint(second.body) == expected)
        #expect(server.stats.requests == 1)

        // The next day: max-age is over, so it revalidates; the server answers 304, no body.
        let later = try fetcher(laterBy: 86_400).get(url)
        #expect(later.source == .revalidated)
        #expect(fingerprint(later.body) == expected)
        #expect(server.waitForStats(timeout: 10) { $0.responses >= 2 })
        let stats = server.stats
        #expect(stats.requests == 2)
        #expect(stats.notModified == 1)
        let revalidationBytes = stats.wireBytes - afterFirst.wireBytes
        #expect(
            revalidationBytes * 10 < afterFirst.wireBytes,
            "a 304 took \(revalidationBytes) B, the download \(afterFirst.wireBytes) B")
    }

    @Test func withoutMaxAgeEveryRelaunchRevalidates() throws {
        server.knobs.maxAgeSeconds = nil
        #expect(try fetcher().get(url).source == .downloaded)
        for _ in 0..<2 { #expect(try fetcher().get(url).source == .revalidated) }
        #expect(server.stats.requests == 3)
        // (A 304 is counted once its write has returned: wait for the last one.)
        #expect(server.waitForStats(timeout: 10) { $0.notModified >= 2 })
        #expect(server.stats.notModified == 2)
    }

    @Test func aStaleETagGetsAFullResponse() throws {
        let cache = HTTPDiskCache(directory: directory)
        try cache.store(
            CachedResponse(
                etag: "\"not-the-current-one\"", maxAgeSeconds: 60,
                storedAt: Date(timeIntervalSinceNow: -3_600), body: Array("old orders".utf8)), for: url)
        let outcome = try fetcher().get(url)
        #expect(outcome.source == .downloaded)
        #expect(fingerprint(outcome.body) == expected)
        // Counted once the server's write has returned; a 304 would have been counted with it.
        #expect(server.waitForStats(timeout: 10) { $0.responses >= 1 })
        #expect(server.stats.notModified == 0)
        // The cache now holds the new body and the server's own ETag.
        let stored = try #require(cache.load(for: url))
        #expect(fingerprint(stored.body) == expected)
        #expect(stored.etag == "\"\(fnv1a(expectedBody))\"")
    }

    @Test(arguments: ["garbage", "truncated", "flipped byte", "empty", "header only"])
    func aDamagedCacheFileIsIgnoredAndRefetched(damage: String) throws {
        _ = try fetcher().get(url)
        let cache = HTTPDiskCache(directory: directory)
        let file = cache.fileURL(for: url)
        var bytes = Array(try Data(contentsOf: file))
        switch damage {
        case "garbage": bytes = Array("\u{1}\u{2}not a cache file at all\n{{{".utf8)
        case "truncated": bytes = Array(bytes.prefix(bytes.count / 2))
        case "flipped byte": bytes[bytes.count - 10] ^= 0xFF
        case "empty": bytes = []
        default: bytes = Array(bytes.prefix(while: { $0 != 0x0A }))
        }
        try Data(bytes).write(to: file)
        let survived = cache.load(for: url) != nil
        #expect(!survived, "a damaged file (\(damage)) must read as absent")

        let outcome = try fetcher().get(url)
        #expect(outcome.source == .downloaded)
        #expect(fingerprint(outcome.body) == expected)
        #expect(server.stats.requests == 2)
        #expect(fingerprint(cache.load(for: url)?.body) == expected, "the refetch repaired the cache")
    }

    @Test func aServerErrorOnRevalidationIsAClearErrorAndKeepsTheCache() throws {
        _ = try fetcher().get(url)
        server.setFault(.status(500), forPathPrefix: "/orders")
        #expect(throws: FetchError.httpStatus(500, url: url.absoluteString)) {
            try self.fetcher(laterBy: 86_400).get(self.url)
        }
        server.setFault(nil, forPathPrefix: "/orders")
        #expect(fingerprint(HTTPDiskCache(directory: directory).load(for: url)?.body) == expected)
    }

    @Test func maxAgeIsReadFromCacheControl() {
        #expect(RevalidatingFetcher.maxAge("max-age=60") == 60)
        #expect(RevalidatingFetcher.maxAge("public, max-age=5, must-revalidate") == 5)
        #expect(RevalidatingFetcher.maxAge("no-cache") == nil)
        #expect(RevalidatingFetcher.maxAge("max-age=-1") == nil)
    }

    func fingerprint(_ body: [UInt8]?) -> String { body.map(fnv1a) ?? "nothing" }
}
