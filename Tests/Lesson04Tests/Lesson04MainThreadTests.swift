import Lesson04Kit
import LessonTestSupport
import WorkshopCore
import WorkshopServer
import XCTest

// XCTest, because every test here runs lesson 04's variants in this process: the harness
// (`VariantRun.perform`) serves the main queue by turning `RunLoop.main` on the real main
// thread, which only XCTest gives a test (`MainQueueFactTests`, in LessonContractTests, shows
// why Swift Testing cannot). What needs no main thread is in the lesson's Swift Testing files.

/// Lesson 04's runs on the main thread: the same job through the three variants, side by side
/// (`Lesson04PairTests`), and what a cancel promises (`Lesson04CancelTests`); their slow tiers.
/// Every run is bounded by a timeout. XCTest runs each test on the main thread, so a test may
/// step onto the main actor with `assumeIsolated`. No tests of its own.
class Lesson04RunCase: XCTestCase {
    var server: FixtureServer!
    var ledger: WireLedger!

    /// A slow link, so that the differences are large against scheduling noise:
    /// identity is about 82 KB in all, gzip about 12 KB.
    class var knobs: ServerKnobs { ServerKnobs(latencySeconds: 0.05, bandwidthBytesPerSecond: 40_000) }

    override func setUpWithError() throws {
        ledger = WireLedger()
        server = FixtureServer(knobs: type(of: self).knobs, onRequest: ledger.record)
        try server.start()
    }

    override func tearDown() {
        server.stop()
    }

    /// One variant against the test's server; `requestTimeout` is the lesson's `--timeout`.
    func run(
        _ variant: Variant, requestTimeout: Double = 10, cancelAfter: Double? = nil, timeout: Double = 60
    ) -> VariantRun<GzipDetails> {
        let endpoint = FixtureEndpoint(
            baseURL: server.baseURL, server: server, knobs: server.knobs, timeoutSeconds: requestTimeout)
        var settings = GzipRun.Settings()
        settings.timeoutSeconds = timeout
        settings.cancelAfter = cancelAfter
        let ledger = ledger
        return MainActor.assumeIsolated {
            GzipRun.perform(variant, endpoint: endpoint, ledger: ledger, settings: settings)
        }
    }

    /// What is wrong with the async run against the threaded and no-thread ones (empty: nothing).
    /// The async variant keeps the main thread as free as the queues (within 2x, with a floor so
    /// that two near-zero figures cannot flake), far freer than the no-thread one, takes about
    /// as long as the queues (within 1.2x plus a little), and starts each round's three together.
    func asyncProblems(
        plain: VariantRun<GzipDetails>, queued: VariantRun<GzipDetails>, tasks: VariantRun<GzipDetails>
    ) -> [String] {
        var problems: [String] = []
        let (plainStall, queuedStall, asyncStall) = (
            plain.screen.maxStallSeconds, queued.screen.maxStallSeconds, tasks.screen.maxStallSeconds
        )
        if asyncStall >= VariantComparison.freezeAllowed(against: queuedStall) {
            problems.append("async stall \(asyncStall) s, threaded \(queuedStall) s")
        }
        if asyncStall >= 0.25 * plainStall { problems.append("async stall \(asyncStall) s, no-thread \(plainStall) s") }
        let queuedTotal = queued.seconds(.totalSeconds) ?? 0
        let asyncTotal = tasks.seconds(.totalSeconds) ?? .infinity
        if asyncTotal >= VariantComparison.totalAllowed(against: queuedTotal) {
            problems.append("async took \(asyncTotal) s, threaded \(queuedTotal) s")
        }
        let plainRound = plain.details.roundSeconds(.identity)
        for api in XMLAPIs.all {
            let start = tasks.details.outcome(api, .identity)?.startSeconds ?? .infinity
            if start >= 0.1 * plainRound { problems.append("async started \(api.name) at \(start) s") }
        }
        return problems
    }

    // MARK: Bad input: a clear error, at once, and nothing half-done shown as done

    /// Every fault below hits the identity round already (the server sends corrupt or
    /// truncated gzip whatever the request accepts), so a variant that stops at its first
    /// failure never starts the gzip round.
    func expectFailure(
        of api: XMLAPIs.API, containing words: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        server.knobs.bandwidthBytesPerSecond = 0
        for variant in [Variant.noThread, .threaded, .async] {
            let failed = run(variant, requestTimeout: 5)
            let message = failed.failure ?? "no failure"
            for word in words {
                XCTAssertTrue(
                    message.contains(word), "\(variant): '\(message)' lacks '\(word)'", file: file, line: line)
            }
            // The failed API has no row; every row shown is a whole document; no gzip round.
            XCTAssertNil(failed.details.outcome(api, .identity), "\(variant)", file: file, line: line)
            for shown in failed.details.outcomes {
                XCTAssertEqual(shown.records.count, shown.api.defaultCount, "\(variant)", file: file, line: line)
                XCTAssertEqual(shown.encoding, .identity, "\(variant): went on after a failure", file: file, line: line)
            }
        }
    }
}

final class Lesson04PairTests: Lesson04RunCase {
    func testAllThreeVariantsParseTheSameRecords() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        let tasks = run(.async)
        for variant in [plain, queued, tasks] { XCTAssertNil(variant.failure, variant.name) }
        for api in XMLAPIs.all {
            for encoding in Encoding.allCases {
                let a = try XCTUnwrap(plain.details.outcome(api, encoding))
                let b = try XCTUnwrap(queued.details.outcome(api, encoding))
                let c = try XCTUnwrap(tasks.details.outcome(api, encoding))
                XCTAssertEqual(a.records.count, api.defaultCount, "\(api.name) \(encoding)")
                XCTAssertEqual(a.records, b.records, "\(api.name) \(encoding): same records no-thread and threaded")
                XCTAssertEqual(a.records, c.records, "\(api.name) \(encoding): same records no-thread and async")
                XCTAssertEqual(c.contentEncoding, b.contentEncoding, "\(api.name) \(encoding)")
            }
        }
        // One request per API and encoding, every way.
        XCTAssertEqual(server.stats.requests, 18)
    }

    func testDecodedBodiesAreByteIdenticalWithAndWithoutGzip() throws {
        let queued = run(.threaded)
        XCTAssertNil(queued.failure)
        for api in XMLAPIs.all {
            let plain = try XCTUnwrap(queued.details.outcome(api, .identity))
            let zipped = try XCTUnwrap(queued.details.outcome(api, .gzip))
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
            let plain = try XCTUnwrap(queued.details.outcome(api, .identity))
            let zipped = try XCTUnwrap(queued.details.outcome(api, .gzip))
            // Counted by the server (head and body), not by URLSession, which only shows decoded bytes.
            let plainWire = try XCTUnwrap(plain.wireBytes)
            let zippedWire = try XCTUnwrap(zipped.wireBytes)
            XCTAssertLessThan(
                Double(zippedWire), 0.3 * Double(plainWire), "\(api.name): \(zippedWire) B vs \(plainWire) B")
            let level6 = try Gzip.compress(Array(plain.body), level: 6).count
            XCTAssertEqual(
                Double(zipped.wireBodyBytes), Double(level6), accuracy: 0.02 * Double(level6),
                "\(api.name): gzip body \(zipped.wireBodyBytes) B, zlib level 6 makes \(level6) B")
            // The server's count is the body plus a head of a few hundred bytes at most.
            XCTAssertTrue((zipped.wireBodyBytes..<(zipped.wireBodyBytes + 400)).contains(zippedWire))
        }
        XCTAssertLessThan(queued.details.gzipRatio, 0.3)
    }

    func testGzipRoundIsFasterOnASlowLink() {
        let plain = run(.noThread)
        XCTAssertNil(plain.failure)
        let identity = plain.details.roundSeconds(.identity)
        let gzip = plain.details.roundSeconds(.gzip)
        // 82 KB at 40 KB/s against 12 KB: about 2.3 s against 0.6 s. Asked: under 60%.
        XCTAssertLessThan(gzip, 0.6 * identity, "gzip round \(gzip) s, identity round \(identity) s")
    }

    func testAFailedAPICancelsTheDownloadsStillInFlight() throws {
        // friends fails at once, catalog never answers: with a 30 s request timeout, a run that
        // waited for catalog would take 30 s. Cancelled, it ends in a moment.
        server.setFault(.status(500), forPathPrefix: XMLAPIs.friends.path)
        server.setFault(.stall, forPathPrefix: XMLAPIs.catalog.path)
        for variant in [Variant.threaded, .async] {
            let failed = run(variant, requestTimeout: 30)
            XCTAssertTrue(failed.failure?.contains("HTTP 500") == true, "\(variant): \(failed.failure ?? "no failure")")
            let total = try XCTUnwrap(failed.seconds(.totalSeconds))
            XCTAssertLessThan(total, 30 / 4, "\(variant) waited \(total) s for a download it should have cancelled")
        }
    }

    /// catalog fails at once (500); friends fails later, when it hits the redirect limit after
    /// several round trips. friends is the cause in every variant: it comes first in the
    /// article's order, and a failure that is not certain to be the cause cancels nothing (when
    /// catalog's failure cancelled friends at once, the threaded and async variants named catalog).
    func testTheCauseIsTheFirstFailureInTheArticlesOrderNotTheFirstToArrive() {
        server.setFault(.redirectLoop, forPathPrefix: XMLAPIs.friends.path)
        server.setFault(.status(500), forPathPrefix: XMLAPIs.catalog.path)
        for variant in [Variant.noThread, .threaded, .async] {
            let failed = run(variant, requestTimeout: 10)
            let message = failed.failure ?? "no failure"
            XCTAssertTrue(message.hasPrefix("friends: too many redirects"), "\(variant): \(message)")
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
        // The no-thread variant stops at friends: statuses and catalog are never asked for.
        // (First, while no threaded request is still reaching the server.)
        XCTAssertNotNil(run(.noThread).failure)
        XCTAssertEqual(server.stats.requests, 1)
        expectFailure(of: XMLAPIs.friends, containing: ["friends", "HTTP 500"])
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson04PairSlowTests: Lesson04RunCase {
    func testThreadedKeepsTheMainThreadFreeAndOverlapsTheDownloads() throws {
        let plain = run(.noThread)
        let queued = run(.threaded)
        XCTAssertLessThan(
            queued.screen.maxStallSeconds, 0.25 * plain.screen.maxStallSeconds,
            "threaded stall \(queued.screen.maxStallSeconds) s vs no-thread \(plain.screen.maxStallSeconds) s")
        XCTAssertLessThan(queued.screen.droppedFrames, plain.screen.droppedFrames)
        // Three downloads at once: the round takes about as long as the largest API alone.
        let plainRound = plain.details.roundSeconds(.identity)
        XCTAssertLessThan(queued.details.roundSeconds(.identity), 0.75 * plainRound)
        // And in the threaded run, all three started together: each within a tenth of the
        // time the no-thread variant needed for the round (where API 3 starts last, at ~70%).
        for api in XMLAPIs.all {
            XCTAssertLessThan(queued.details.outcome(api, .identity)?.startSeconds ?? .infinity, 0.1 * plainRound)
        }
        XCTAssertGreaterThan(plain.details.outcome(XMLAPIs.catalog, .identity)?.startSeconds ?? 0, 0.5 * plainRound)
    }

    func testAsyncKeepsTheMainThreadAsFreeAsThreadedAndTakesAsLong() throws {
        let plain = run(.noThread)
        XCTAssertNil(plain.failure)
        // A busy 2-core machine can hold the main thread for a moment: up to three tries.
        let fine = { (runs: (VariantRun<GzipDetails>, VariantRun<GzipDetails>)) in
            self.asyncProblems(plain: plain, queued: runs.0, tasks: runs.1).isEmpty
        }
        let (queued, tasks) = firstPassing(passes: fine) { (run(.threaded), run(.async)) }
        XCTAssertNil(tasks.failure)
        XCTAssertEqual(asyncProblems(plain: plain, queued: queued, tasks: tasks), [])
        XCTAssertLessThan(tasks.screen.droppedFrames, plain.screen.droppedFrames)
    }

    func testASilentAPIEndsTheRunAfterOneTimeoutAndCancelsTheRest() throws {
        // statuses never answers; the others do. With a 1 s timeout the run must end after
        // about one timeout, not wait for anything in turn, and (threaded, async) keep drawing.
        server.setFault(.stall, forPathPrefix: XMLAPIs.statuses.path)
        let timeout = 1.0
        for variant in [Variant.noThread, .threaded, .async] {
            server.resetStats()
            let failed = run(variant, requestTimeout: timeout)
            let message = failed.failure ?? "no failure"
            XCTAssertTrue(message.contains("timed out after 1 s waiting for http://"), "\(variant): \(message)")
            XCTAssertTrue(message.contains(XMLAPIs.statuses.path), "\(variant): \(message)")
            let total = try XCTUnwrap(failed.seconds(.totalSeconds))
            XCTAssertLessThan(total, 2 * timeout + 5, "\(variant) took \(total) s to give up")
            if variant != .noThread {
                XCTAssertLessThan(
                    failed.screen.maxStallSeconds, 0.5 * timeout, "\(variant): the main thread froze while failing")
            } else {
                XCTAssertEqual(server.stats.requests(under: XMLAPIs.catalog.path), 0, "went on after statuses")
            }
        }
    }
}

/// What a cancel promises in lesson 04: no request and no row after the tap (beyond one request
/// already on its way), the downloads in flight cancelled, and a run that gives up starts no
/// gzip round. Cancel points are random, from a printed seed (`SAKUSAKU_SEED=N` reruns).
///
///
/// What Lesson04CancelTests and Lesson04CancelSlowTests (the slow tier) share; no tests of its own.
class Lesson04CancelCase: Lesson04RunCase {
    /// About 0.6 s a round: identity (82 KB) at 200 KB/s, then gzip.
    override class var knobs: ServerKnobs { ServerKnobs(latencySeconds: 0.05, bandwidthBytesPerSecond: 200_000) }

    func cancelled(_ variant: Variant, at cancelAfter: Double?, timeout: Double = 60) -> VariantRun<GzipDetails> {
        run(variant, cancelAfter: cancelAfter, timeout: timeout)
    }

    /// The no-thread variant sees the tap only between two blocking downloads: it is asked to
    /// show and send nothing after it, not to stop within 1 s.
    func problems(_ run: VariantRun<GzipDetails>, _ variant: Variant) -> [String] {
        run.cancelProblems(blocking: variant == .noThread, requestsAtOnce: XMLAPIs.all.count)
    }
}

final class Lesson04CancelTests: Lesson04CancelCase {
    /// Item 4 of the audit: with the answers in hand (downloaded, being parsed, on their way to
    /// main) when the tap comes, no row is added after it.
    func testACancelWithAnswersInHandAddsNoRow() {
        server.knobs.bandwidthBytesPerSecond = 0  // unlimited: the three answers come in together
        server.knobs.latencySeconds = 0.2
        for variant in [Variant.threaded, .async] {
            for at in [0.2, 0.22] {
                let run = cancelled(variant, at: at)
                XCTAssertEqual(problems(run, variant), [], "\(variant) cancelled at \(at) s")
            }
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson04CancelSlowTests: Lesson04CancelCase {
    /// Random cancel points over the whole run: before the first request, mid-identity round,
    /// between the rounds, mid-gzip round.
    func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let found = randomCancelProblems(
            "lesson 04 random cancels", Variant.allCases, within: 0...1.2, run: { cancelled($0, at: $1) },
            problems: problems)
        XCTAssertEqual(found, [])
    }

    /// Item 6 of the audit: the threaded variant started its gzip round after the run had given
    /// up (requests 3 -> 6, rows added on a finished controller). A run that gives up mid-way
    /// leaves nothing running: no request reaches the server after it has returned.
    func testARunThatGivesUpLeavesNothingRunning() throws {
        // Two runs of 0.5 s and their ends: the slow tier.
        // The identity round takes over a second: the run gives up at 0.5 s, in its middle. A
        // variant that goes on would finish the round a moment later and start the gzip round.
        server.knobs.bandwidthBytesPerSecond = 40_000
        for variant in [Variant.threaded, .async] {
            let began = monotonicSeconds()
            let run = cancelled(variant, at: nil, timeout: 0.5)
            XCTAssertTrue(run.failure?.contains("gave up") == true, "\(variant): \(run.failure ?? "no failure")")
            // Counted from the moment it gave up (the harness then waits for the work to stop).
            let gaveUp = began + (run.seconds(.totalSeconds) ?? 0.5)
            // The gzip round would come here, within about a second of giving up (1.5 s is enough).
            _ = MainActor.assumeIsolated { MainLoop.run(timeout: 1.5) { false } }
            XCTAssertEqual(server.requestsReceived(since: gaveUp), 0, "\(variant): requests after giving up")
        }
    }
}
