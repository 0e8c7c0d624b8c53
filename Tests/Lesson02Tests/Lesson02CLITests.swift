import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson02` binary, the way a learner or a script would.
final class Lesson02CLITests: XCTestCase {
    func lesson02(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson02").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson02 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    static let allRuns = [
        "no-thread", "threaded", "async", "threaded-after-download", "spin-no-source", "spin-past-deadline",
    ]

    func testJSONIsOneDocumentWithEveryRun() throws {
        let outcome = try lesson02(["--json", "--items", "30", "--latency", "0.02", "--bandwidth", "20000"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "02")
        XCTAssertEqual(document.parameters[.items] as? Int, 30)
        XCTAssertEqual(document.parameters[.latencySeconds] as? Double, 0.02)
        XCTAssertEqual(document.variantNames, Self.allRuns)
        let keys: [MetricName] = [
            .totalSeconds, .firstContentSeconds, .firstItemSeconds, .mainThreadMaxStallSeconds, .droppedFrames,
        ]
        XCTAssertEqual(document.lacking(keys), [])
        XCTAssertEqual(document.counts(.itemsShown), [30, 30, 30, 30, 30, 30])
        for name in document.variantNames where name != "no-thread" {
            let metrics = document.metrics(name)
            XCTAssertEqual(metrics[.callbacksOffNetworkThread] as? Int, 0)
            XCTAssertNotNil(metrics[.networkThreadCPUSeconds])
            XCTAssertNotNil(metrics[.loopIterations])
        }
    }

    func testOneTwoOrThreeVariantsWithoutTheComparison() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        for (variant, names) in [
            ("threaded", ["threaded"]), ("async", ["async"]), ("both", ["no-thread", "threaded"]),
            ("all", ["no-thread", "threaded", "async"]),
        ] {
            let outcome = try lesson02([
                "--json", "--variant", variant, "--no-compare", "--items", "5", "--latency", "0",
            ])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, variant)
        }
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
            (["--items", "0"], "--items"), (["--bandwidth", "-5"], "--bandwidth"),
            (["--server", "ftp://x"], "--server"), (["--fault", "gremlins"], "--fault"),
            (["--timeout", "0"], "--timeout"), (["--no-such-flag"], "--no-such-flag"),
        ] {
            let outcome = try lesson02(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson02(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--latency", "--bandwidth", "--timeout", "--server", "--items", "--compare",
            "--no-compare", "--fault",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testABrokenFeedIsAClearError() throws {
        for variant in ["threaded", "async"] {
            let outcome = try lesson02([
                "--fault", "malformed", "--variant", variant, "--no-compare", "--latency", "0", "--bandwidth", "0",
                "--json",
            ])
            XCTAssertEqual(outcome.status, 1, variant)
            XCTAssertTrue(outcome.stderr.contains("not well-formed XML (line"), "\(variant): \(outcome.stderr)")
        }
    }

    func testAnUnreachableServerIsOneClearErrorNotATable() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson02(["--server", "http://127.0.0.1:9"])
        XCTAssertEqual(outcome.refusedConnectionProblems, [])
        XCTAssertTrue(outcome.stderr.contains("the " + listed(Self.allRuns) + " variants failed"), outcome.stderr)
    }

    func testASilentServerEndsEveryRunWithinTwiceTheTimeout() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        let outcome = try lesson02(["--fault", "stall", "--timeout", "1", "--items", "40"])
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        XCTAssertTrue(
            outcome.stderr.contains("variants failed: timed out after 1 s waiting for http://"), outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("/feed.xml"), outcome.stderr)
        // Six runs, each within 2 x timeout: the fetch gives up, the network thread (if any) stops.
        XCTAssertLessThan(outcome.seconds, Double(Self.allRuns.count) * (2 * 1) + 5, "took \(outcome.seconds) s")
    }

    func testEveryFaultIsExitOneAndOneLineCause() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        for (fault, words) in [
            ("500", "the server answered HTTP 500"), ("drop", "the connection was reset"),
            // Half the document, sent as if complete: the parser finds it cut off.
            ("malformed", "not well-formed XML"),
            // libcurl decodes gzip itself: a corrupt stream is a transport error, and a truncated
            // one arrives as a short body, which the parser finds cut off.
            ("corrupt-gzip", "corrupt gzip"), ("truncated-gzip", "not well-formed XML"),
        ] {
            let outcome = try lesson02([
                "--fault", fault, "--no-compare", "--items", "40", "--json",
            ])
            XCTAssertEqual(outcome.status, 1, "\(fault): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(fault): one line:\n\(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains(words), "\(fault): \(outcome.stderr)")
            XCTAssertEqual(outcome.document?.variantNames, ["no-thread", "threaded", "async"], "\(fault)")
            for name in ["threaded", "async"] {
                XCTAssertEqual(outcome.document?.failure(name)?.contains(words), true, "\(fault), \(name)")
                // Items shown before the feed broke off are never a whole feed.
                XCTAssertLessThan(outcome.document?.metrics(name)[.itemsShown] as? Int ?? 0, 40, "\(fault), \(name)")
            }
        }
    }
}
