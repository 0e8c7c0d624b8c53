import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson01` binary, the way a learner or a script would.
final class Lesson01CLITests: XCTestCase {
    func lesson01(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson01").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson01 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithTheThreeVariants() throws {
        let outcome = try lesson01(["--json", "--items", "3", "--latency", "0.02", "--slow-latency", "0.5"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "01")
        XCTAssertEqual(document.parameters[.items] as? Int, 3)
        XCTAssertEqual(document.parameters[.latencySeconds] as? Double, 0.02)
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        let keys: [MetricName] = [
            .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames,
            .maxConcurrentOperationsSeen, .completionOrder, .cancelledItemDelivered, .requestsServed,
        ]
        XCTAssertEqual(document.lacking(keys), [])
        // login, get-user and 3 items (the welcome note is a data: URL, not a request)
        XCTAssertEqual(document.counts(.requestsServed), [5, 5, 5])
    }

    func testOneVariantOrTwo() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        for (variant, names) in [
            ("threaded", ["threaded"]), ("async", ["async"]), ("both", ["no-thread", "threaded"]),
        ] {
            let outcome = try lesson01([
                "--json", "--variant", variant, "--items", "2", "--latency", "0", "--no-cancel",
            ])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, variant)
        }
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
            (["--items", "0"], "--items"), (["--bandwidth", "-5"], "--bandwidth"),
            (["--server", "ftp://x"], "--server"), (["--width", "99"], "--width"),
            (["--slow-latency", "31"], "--slow-latency"), (["--timeout", "0"], "--timeout"),
            (["--fault", "sometimes"], "--fault"), (["--no-such-flag"], "--no-such-flag"),
        ] {
            let outcome = try lesson01(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson01(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--latency", "--bandwidth", "--timeout", "--fault", "--server", "--items", "--width",
            "--slow-latency", "--cancel", "--show-hang",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testShowHangExplainsTheMissingAnnouncement() throws {
        let outcome = try lesson01(["--show-hang"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(
            outcome.stdout.contains("isFinished = true, completionBlock ran = false, dependant ran = false"),
            outcome.stdout)
    }

    func testAnUnreachableServerIsOneClearErrorNotATable() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson01(["--server", "http://127.0.0.1:9"])
        XCTAssertEqual(outcome.refusedConnectionProblems, [])
        XCTAssertTrue(outcome.stderr.contains("no-thread, threaded and async variants failed"), outcome.stderr)
    }

    func testASilentServerEndsEveryVariantWithinTwiceTheTimeout() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        let outcome = try lesson01(["--fault", "stall", "--timeout", "1"])
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        XCTAssertTrue(
            outcome.stderr.contains(
                "no-thread, threaded and async variants failed: timed out after 1 s waiting for http://"),
            outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("/api/login"), outcome.stderr)
        // Three variants, each within 2 x timeout (the login times out; nothing else is sent).
        XCTAssertLessThan(outcome.seconds, 3 * (2 * 1) + 5, "took \(outcome.seconds) s")
    }

    func testEveryFaultIsExitOneAndOneLineCause() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        // Every fault hits the login first; nothing that needs its token is sent after it.
        for (fault, words) in [
            ("500", "the server answered HTTP 500"), ("drop", "the connection was reset"),
            ("malformed", "is not what we expected"),
            // libcurl decodes gzip itself: a corrupt stream is a transport error...
            ("corrupt-gzip", "corrupt gzip"),
            // ...and a truncated one arrives as a short body, which is not the whole JSON.
            ("truncated-gzip", "is not what we expected"),
        ] {
            let outcome = try lesson01(["--fault", fault, "--json"])
            XCTAssertEqual(outcome.status, 1, "\(fault): \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(fault): one line, one cause:\n\(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains(words), "\(fault): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("/api/login"), "\(fault): \(outcome.stderr)")
            XCTAssertEqual(outcome.document?.failure("threaded")?.contains(words), true, "\(fault)")
            XCTAssertEqual(outcome.document?.failure("async")?.contains(words), true, "\(fault)")
        }
    }
}
