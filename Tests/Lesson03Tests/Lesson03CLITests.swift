import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson03` binary, the way a learner or a script would.
final class Lesson03CLITests: XCTestCase {
    func lesson03(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson03").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson03 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithAllThreeVariants() throws {
        let outcome = try lesson03(["--json", "--rows", "4", "--latency", "0.02"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "03")
        XCTAssertEqual(document.parameters[.rows] as? Int, 4)
        XCTAssertEqual(document.parameters[.latencySeconds] as? Double, 0.02)
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        let keys: [MetricName] = [
            .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames, .requestsServed,
            .iconRequests, .iconCacheHits,
        ]
        XCTAssertEqual(document.lacking(keys), [])
        // 4 rows fit on the 8-row screen: the default scrolls move nothing, so no icon twice.
        XCTAssertEqual(document.counts(.requestsServed), [5, 5, 5])
    }

    func testVariantChoosesOneTwoOrThree() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        for (choice, names) in [
            ("threaded", ["threaded"]), ("async", ["async"]), ("both", ["no-thread", "threaded"]),
            ("all", ["no-thread", "threaded", "async"]),
        ] {
            let outcome = try lesson03(["--json", "--variant", choice, "--rows", "2", "--latency", "0"])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, choice)
        }
    }

    func testScrollingWithAndWithoutTheCache() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        // 12 rows, 4 on the screen, down a screenful and back: the cache saves the 4 rows that come back.
        let arguments = ["--json", "--rows", "12", "--visible-rows", "4", "--scroll", "down 4, up 4", "--latency", "0"]
        let cached = try XCTUnwrap(try lesson03(arguments).document)
        let uncached = try XCTUnwrap(try lesson03(arguments + ["--no-cache"]).document)
        XCTAssertEqual(cached.counts(.iconRequests), [8, 8, 8])
        XCTAssertEqual(cached.counts(.iconCacheHits), [4, 4, 4])
        XCTAssertEqual(uncached.counts(.iconRequests), [12, 12, 12])
        XCTAssertEqual(uncached.counts(.requestsServed), [13, 13, 13])
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
            (["--rows", "0"], "--rows"), (["--bandwidth", "-5"], "--bandwidth"),
            (["--server", "ftp://x"], "--server"), (["--image-width", "99"], "--image-width"),
            (["--timeout", "0"], "--timeout"), (["--fault", "sometimes"], "--fault"),
            (["--no-such-flag"], "--no-such-flag"), (["--visible-rows", "0"], "--visible-rows"),
            (["--scroll", "sideways 3"], "--scroll"), (["--scroll", "down 8, up"], "--scroll"),
        ] {
            let outcome = try lesson03(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
        // A negative number is a value out of range, not a missing one.
        XCTAssertTrue(try lesson03(["--latency", "-1"]).stderr.contains("between 0 and 60"))
    }

    func testHelpExplainsEveryFlagWithItsRangeAndDefault() throws {
        let outcome = try lesson03(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--latency", "--bandwidth", "--timeout", "--fault", "--server", "--rows",
            "--image-width", "--visible-rows", "--scroll", "--no-cache",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
        XCTAssertTrue(outcome.stdout.contains("0-60; default 0.15"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("default 50000"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("The async variant"), outcome.stdout)
    }

    func testAnUnreachableServerIsOneClearErrorNotATable() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson03(["--server", "http://127.0.0.1:9"])
        XCTAssertEqual(outcome.refusedConnectionProblems, [])
        XCTAssertTrue(outcome.stderr.contains("no-thread, threaded and async variants failed"), outcome.stderr)
    }

    func testASilentServerEndsEveryVariantWithinTwiceTheTimeout() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        XCTAssertEqual(try LessonBinary("lesson03").silentServerProblems(["--rows", "4"]), [])
    }

    /// The timeline request meets every fault first, so every variant fails with its cause.
    func testEveryFaultIsExit1WithAOneLineCause() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        let causes = [
            "500": "HTTP 500", "drop": "reset", "stall": "timed out after 1 s",
            "corrupt-gzip": "unencoding", "truncated-gzip": "not what we expected", "malformed": "malformed",
        ]
        XCTAssertEqual(try LessonBinary("lesson03").faultProblems(causes: causes, ["--rows", "4"]), [])
    }

    func testWithAnotherServerTheBannerDoesNotClaimOurDefaults() throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try lesson03(["--server", server.endpoint.baseURL.absoluteString, "--rows", "2"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("that server's own latency and bandwidth"), outcome.stdout)
        XCTAssertFalse(outcome.stdout.contains("0.15 s"), outcome.stdout)
    }
}
