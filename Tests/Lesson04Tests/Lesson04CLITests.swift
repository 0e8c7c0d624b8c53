import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson04` binary, the way a learner or a script would.
final class Lesson04CLITests: XCTestCase {
    func lesson04(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson04").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson04 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithThreeVariants() throws {
        let outcome = try lesson04(["--json", "--latency", "0.02", "--bandwidth", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "04")
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        XCTAssertEqual(document.parameters[.apis] as? String, "friends,statuses,catalog")
        XCTAssertEqual(document.parameters[.latencySeconds] as? Double, 0.02)
        XCTAssertEqual(document.parameters[.bandwidthBytesPerSecond] as? Int, 0)
        for name in document.variantNames {
            let metrics = document.metrics(name)
            for key: MetricName in [
                .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames,
                .identityWireBytes, .gzipWireBytes, .decodedBodyBytes, .gzipWireRatio,
                // The article's table per API and encoding: names made from their parts.
                MetricName("catalogIdentityResponseSeconds"), MetricName("catalogGzipDataSeconds"),
                MetricName("friendsGzipParsedSeconds"), MetricName("statusesGzipWireBytes"),
            ] {
                XCTAssertNotNil(metrics[key], "\(name) lacks \(key)")
            }
            XCTAssertLessThan(try XCTUnwrap(metrics[.gzipWireRatio] as? Double), 0.3)
            XCTAssertEqual(metrics[.recordsParsed] as? Int, 2 * XMLAPIsCount.records)
        }
    }

    func testOneVariant() throws {
        for variant in ["threaded", "async"] {
            let outcome = try lesson04(["--json", "--variant", variant, "--latency", "0", "--bandwidth", "0"])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, [variant])
        }
    }

    func testBothIsNoThreadAndThreaded() throws {
        let outcome = try lesson04(["--json", "--variant", "both", "--latency", "0", "--bandwidth", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.document?.variantNames, ["no-thread", "threaded"])
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
            (["--bandwidth", "-5"], "--bandwidth"), (["--server", "ftp://x"], "--server"),
            (["--timeout", "0"], "--timeout"), (["--fault", "sometimes"], "--fault"),
            (["--no-such-flag"], "--no-such-flag"),
        ] {
            let outcome = try lesson04(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson04(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--timeout", "--fault"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
        XCTAssertTrue(outcome.stdout.contains("0.1-300; default 10"), "--timeout with its range and default")
        XCTAssertTrue(outcome.stdout.contains("Swift 6"), "the discussion names the async variant")
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson04(
            ["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json", "--timeout", "5"],
            timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }

    func testAnUnreachableServerIsOneClearErrorNotATable() throws {
        let outcome = try lesson04(["--server", "http://127.0.0.1:9"])
        XCTAssertEqual(outcome.refusedConnectionProblems, [])
        XCTAssertTrue(outcome.stderr.contains("no-thread, threaded and async variants failed"), outcome.stderr)
    }

    func testASilentServerEndsEveryVariantWithinTwiceTheTimeout() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        XCTAssertEqual(try LessonBinary("lesson04").silentServerProblems(), [])
    }

    /// The server sends corrupt or truncated gzip even to a request for identity, so every
    /// fault reaches this lesson's requests.
    func testEveryFaultIsExit1WithAOneLineCause() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        let causes = [
            "500": "HTTP 500", "drop": "reset", "stall": "timed out after 1 s",
            "corrupt-gzip": "unencoding", "truncated-gzip": "malformed", "malformed": "malformed at line",
        ]
        XCTAssertEqual(try LessonBinary("lesson04").faultProblems(causes: causes, ["--bandwidth", "0"]), [])
    }
}

/// 60 friends + 90 statuses + 90 items: one round's records with the default counts.
enum XMLAPIsCount {
    static let records = 240
}
