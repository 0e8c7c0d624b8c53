import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson05` binary, the way a learner or a script would.
final class Lesson05CLITests: XCTestCase {
    func lesson05(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson05").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson05 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithThreeVariants() throws {
        let outcome = try lesson05(["--json", "--orders", "200", "--products", "300", "--latency", "0.02"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "05")
        XCTAssertEqual(document.parameters[.orders] as? Int, 200)
        XCTAssertEqual(document.parameters[.products] as? Int, 300)
        XCTAssertEqual(document.parameters[.latencySeconds] as? Double, 0.02)
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        for name in document.variantNames {
            let metrics = document.metrics(name)
            for key: MetricName in [
                .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames,
                .preloadSeconds, .naiveParseSeconds, .cachedParseSeconds, .firstLaunchWireBytes,
                // Apple's words for a freeze, over the three launches (issue 21).
                .hangs, .hangSeconds, .hitchRateMsPerSecond,
            ] {
                XCTAssertNotNil(metrics[key], "\(name) lacks \(key)")
            }
            XCTAssertEqual(metrics[.naiveQueries] as? Int, 200)
            XCTAssertEqual(metrics[.cachedQueries] as? Int, 1)
            XCTAssertEqual(metrics[.firstLaunchRequests] as? Int, 1)
            XCTAssertEqual(metrics[.secondLaunchRequests] as? Int, 0)
            XCTAssertEqual(metrics[.nextDayLaunchSource] as? String, "304")
            XCTAssertEqual(metrics[.fullDownloadsAfterFirstLaunch] as? Int, 0)
        }
    }

    func testMaxAgeZeroMakesTheSecondLaunchRevalidate() throws {
        let outcome = try lesson05([
            "--json", "--variant", "threaded", "--orders", "50", "--products", "100",
            "--latency", "0", "--max-age", "0",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.variantNames.count, 1)
        let metrics = document.metrics("threaded")
        XCTAssertEqual(metrics[.secondLaunchSource] as? String, "304")
        XCTAssertEqual(metrics[.secondLaunchRequests] as? Int, 1)
    }

    func testVariantChoosesTheRuns() throws {
        for (variant, names) in [("async", ["async"]), ("both", ["no-thread", "threaded"])] {
            let outcome = try lesson05([
                "--json", "--variant", variant, "--orders", "50", "--products", "100", "--latency", "0",
            ])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, variant)
        }
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
            (["--orders", "0"], "--orders"), (["--products", "5"], "--products"),
            (["--max-age", "-3"], "--max-age"), (["--bandwidth", "-5"], "--bandwidth"),
            (["--server", "ftp://x"], "--server"), (["--timeout", "0"], "--timeout"),
            (["--fault", "sometimes"], "--fault"), (["--no-such-flag"], "--no-such-flag"),
        ] {
            let outcome = try lesson05(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson05(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--latency", "--bandwidth", "--server", "--products", "--orders", "--max-age",
            "--timeout", "--fault",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
        XCTAssertTrue(outcome.stdout.contains("Swift 6"), "the discussion names the async variant")
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson05(
            ["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json"], timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }

    func testAnUnreachableServerIsOneClearErrorNotATable() throws {
        let outcome = try lesson05(["--server", "http://127.0.0.1:9", "--orders", "50", "--products", "100"])
        XCTAssertEqual(outcome.refusedConnectionProblems, [])
        XCTAssertTrue(outcome.stderr.contains("no-thread, threaded and async variants failed"), outcome.stderr)
    }

    func testASilentServerEndsEveryVariantWithinTwiceTheTimeout() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        XCTAssertEqual(try LessonBinary("lesson05").silentServerProblems(), [])
    }

    /// The server sends corrupt or truncated gzip whatever the request accepts, and URLSession
    /// inflates it, so every fault reaches this lesson's one request.
    func testEveryFaultIsExit1WithAOneLineCause() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        let causes = [
            "500": "HTTP 500", "drop": "reset", "stall": "timed out after 1 s", "corrupt-gzip": "unencoding",
            "truncated-gzip": "not the JSON we expected", "malformed": "not the JSON we expected",
        ]
        // A short link: on redirect-loop, URLSession (no delegate here) follows its 20 redirects
        // before it gives up, each one a round trip: 4 s a variant at the default 0.2 s latency.
        XCTAssertEqual(
            try LessonBinary("lesson05").faultProblems(causes: causes, ["--orders", "500", "--latency", "0.05"]), [])
    }
}
