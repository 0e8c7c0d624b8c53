import Foundation
import XCTest
@testable import lesson04
import WorkshopCore

/// The same job through both variants, side by side. XCTest, because these runs need the
/// real main thread and its run loop (see linux-facts.md); every run is bounded by a timeout.
final class Lesson04PairTests: XCTestCase {
    private var server: FixtureServer!
    private var endpoint: FixtureEndpoint!
    private var ledger: WireLedger!

    /// A slow link, so that the differences are large against scheduling noise:
    /// identity is about 82 KB in all, gzip about 12 KB.
    private static let knobs = ServerKnobs(latencySeconds: 0.05, bandwidthBytesPerSecond: 40_000)

    override func setUpWithError() throws {
        ledger = WireLedger()
        server = FixtureServer(knobs: Self.knobs, onRequest: ledger.record)
        endpoint = FixtureEndpoint(baseURL: try server.start(), server: server, knobs: server.knobs)
    }

    override func tearDown() {
        server.stop()
    }

    private func run(_ variant: Variant, timeout: Double = 10) -> GzipRun {
        var settings = GzipRun.Settings()
        settings.timeoutSeconds = timeout
        return GzipRun.perform(variant, endpoint: endpoint, ledger: ledger, settings: settings)
    }

    func testBothVariantsParseTheSameRecords() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        for api in XMLAPIs.all {
            for encoding in Encoding.allCases {
                let a = try XCTUnwrap(plain.outcome(api, encoding)), b = try XCTUnwrap(queued.outcome(api, encoding))
                XCTAssertEqual(a.records.count, api.defaultCount, "\(api.name) \(encoding)")
                XCTAssertEqual(a.records, b.records, "\(api.name) \(encoding): same records both ways")
            }
        }
        // One request per API and encoding, both ways.
        XCTAssertEqual(server.stats.requests, 12)
    }

    func testDecodedBodiesAreByteIdenticalWithAndWithoutGzip() throws {
        let queued = run(.threaded)
        XCTAssertNil(queued.failure)
        for api in XMLAPIs.all {
            let plain = try XCTUnwrap(queued.outcome(api, .identity))
            let zipped = try XCTUnwrap(queued.outcome(api, .gzip))
            XCTAssertNil(plain.contentEncoding, "\(api.name) came gzipped when asked for identity")
            XCTAssertEqual(zipped.contentEncoding, "gzip", "\(api.name) did not come gzipped when asked for gzip")
            XCTAssertEqual(plain.body, zipped.body, "\(api.name): decoded bodies differ")
            XCTAssertEqual(Array(zipped.body), api.body(), "\(api.name): not the document the server made")
        }
    }

    func testGzipWireSizeIsUnderAThirdAndWhatZlibLevel6Makes() throws {
        let queued = run(.threaded)
        XCTAssertNil(queued.failure)
        for api in XMLAPIs.all {
            let plain = try XCTUnwrap(queued.outcome(api, .identity))
            let zipped = try XCTUnwrap(queued.outcome(api, .gzip))
            // Counted by the server (head and body), not by URLSession, which only shows decoded bytes.
            let plainWire = try XCTUnwrap(plain.wireBytes), zippedWire = try XCTUnwrap(zipped.wireBytes)
            XCTAssertLessThan(Double(zippedWire), 0.3 * Double(plainWire), "\(api.name): \(zippedWire) B vs \(plainWire) B")
            let level6 = try Gzip.compress(Array(plain.body), level: 6).count
            XCTAssertEqual(Double(zipped.wireBodyBytes), Double(level6), accuracy: 0.02 * Double(level6),
                           "\(api.name): gzip body \(zipped.wireBodyBytes) B, zlib level 6 makes \(level6) B")
            // The server's count is the body plus a head of a few hundred bytes at most.
            XCTAssertTrue((zipped.wireBodyBytes..<(zipped.wireBodyBytes + 400)).contains(zippedWire))
        }
        XCTAssertLessThan(queued.gzipRatio, 0.3)
    }

    func testGzipRoundIsFasterOnASlowLink() {
        let plain = run(.noThread)
        XCTAssertNil(plain.failure)
        let identity = plain.roundSeconds(.identity), gzip = plain.roundSeconds(.gzip)
        // 82 KB at 40 KB/s against 12 KB: about 2.3 s against 0.6 s. Asked: under 60%.
        XCTAssertLessThan(gzip, 0.6 * identity, "gzip round \(gzip) s, identity round \(identity) s")
    }

    func testThreadedKeepsTheMainThreadFreeAndOverlapsTheDownloads() {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertLessThan(queued.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds,
                          "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
        // Three downloads at once: the round takes about as long as the largest API alone.
        XCTAssertLessThan(queued.roundSeconds(.identity), 0.75 * plain.roundSeconds(.identity))
        // And in the threaded run, all three started together: each within a tenth of the
        // time the no-thread variant needed for the round (where API 3 starts last, at ~70%).
        for api in XMLAPIs.all {
            XCTAssertLessThan(queued.outcome(api, .identity)?.startSeconds ?? .infinity, 0.1 * plain.roundSeconds(.identity))
        }
        XCTAssertGreaterThan(plain.outcome(XMLAPIs.catalog, .identity)?.startSeconds ?? 0, 0.5 * plain.roundSeconds(.identity))
    }

    // MARK: Bad input: a clear error, the other APIs still in, no hang

    private func expectFailure(of api: XMLAPIs.API, containing words: [String],
                               file: StaticString = #filePath, line: UInt = #line) {
        server.knobs.bandwidthBytesPerSecond = 0
        for variant in [Variant.noThread, .threaded] {
            let failed = run(variant, timeout: 5)
            let message = failed.failure ?? "no failure"
            for word in words {
                XCTAssertTrue(message.contains(word), "\(variant): '\(message)' lacks '\(word)'", file: file, line: line)
            }
            // Nothing else lost: the other APIs were fetched and parsed in full.
            for other in XMLAPIs.all where other != api {
                XCTAssertEqual(failed.outcome(other, .gzip)?.records.count, other.defaultCount, file: file, line: line)
            }
            XCTAssertEqual(failed.outcome(api, .gzip)?.records.count, 0, file: file, line: line)
        }
    }

    func testACorruptGzipBodyIsAClearError() {
        server.setFault(.corruptGzip, forPathPrefix: XMLAPIs.catalog.path)
        // libcurl's own words: "Error while processing content unencoding: invalid block type".
        expectFailure(of: XMLAPIs.catalog, containing: ["catalog", "unencoding"])
    }

    func testATruncatedGzipBodyIsAClearError() throws {
        server.setFault(.truncatedGzip, forPathPrefix: XMLAPIs.statuses.path)
        // URLSession (libcurl 7.88) hands over what it could inflate, without an error; the
        // parser is what notices that the document stops in the middle.
        expectFailure(of: XMLAPIs.statuses, containing: ["statuses", "malformed"])
        // The raw view says what really happened.
        let raw = try RawHTTP.get(port: server.port, path: XMLAPIs.statuses.path, headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(raw.headers["content-encoding"], "gzip")
        XCTAssertThrowsError(try Gzip.decompress(raw.body)) { error in
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
    }

    func testMalformedXMLIsAClearError() {
        server.setFault(.malformed, forPathPrefix: XMLAPIs.friends.path)
        expectFailure(of: XMLAPIs.friends, containing: ["friends", "malformed at line"])
    }

    func testAnHTTPErrorIsAClearError() {
        server.setFault(.status(500), forPathPrefix: XMLAPIs.friends.path)
        expectFailure(of: XMLAPIs.friends, containing: ["friends", "HTTP 500"])
    }
}
