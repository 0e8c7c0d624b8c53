import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson05` binary, the way a learner or a script would.
final class Lesson05CLITests: XCTestCase {
    /// Runs the built `lesson05` binary (next to the test bundle), bounded by a timeout.
    static func lesson05(_ arguments: [String], timeout: Double = 60) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson05") else {
            throw XCTSkip("lesson05 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson05 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithBothVariants() throws {
        let outcome = try Self.lesson05(["--json", "--orders", "200", "--products", "300", "--latency", "0.02"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "05")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["orders"] as? Int, 200)
        XCTAssertEqual(parameters["products"] as? Int, 300)
        XCTAssertEqual(parameters["latencySeconds"] as? Double, 0.02)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames",
                        "preloadSeconds", "naiveParseSeconds", "cachedParseSeconds", "firstLaunchWireBytes"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertEqual(metrics["naiveQueries"] as? Int, 200)
            XCTAssertEqual(metrics["cachedQueries"] as? Int, 1)
            XCTAssertEqual(metrics["firstLaunchRequests"] as? Int, 1)
            XCTAssertEqual(metrics["secondLaunchRequests"] as? Int, 0)
            XCTAssertEqual(metrics["nextDayLaunchSource"] as? String, "304")
            XCTAssertEqual(metrics["fullDownloadsAfterFirstLaunch"] as? Int, 0)
        }
    }

    func testMaxAgeZeroMakesTheSecondLaunchRevalidate() throws {
        let outcome = try Self.lesson05(["--json", "--variant", "threaded", "--orders", "50", "--products", "100",
                                         "--latency", "0", "--max-age", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.count, 1)
        let metrics = try XCTUnwrap(variants.first?["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["secondLaunchSource"] as? String, "304")
        XCTAssertEqual(metrics["secondLaunchRequests"] as? Int, 1)
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
                                  (["--orders", "0"], "--orders"), (["--products", "5"], "--products"),
                                  (["--max-age", "-3"], "--max-age"), (["--bandwidth", "-5"], "--bandwidth"),
                                  (["--server", "ftp://x"], "--server"), (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson05(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson05(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--products", "--orders", "--max-age"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try Self.lesson05(["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json"], timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }
}
