import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson02` binary, the way a learner or a script would.
final class Lesson02CLITests: XCTestCase {
    /// Runs the built `lesson02` binary (next to the test bundle), bounded by a timeout.
    static func lesson02(_ arguments: [String], timeout: Double = 60) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson02") else {
            throw XCTSkip("lesson02 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson02 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithEveryRun() throws {
        let outcome = try Self.lesson02(["--json", "--items", "30", "--latency", "0.02", "--bandwidth", "20000"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "02")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["items"] as? Int, 30)
        XCTAssertEqual(parameters["latencySeconds"] as? Double, 0.02)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String },
                       ["no-thread", "threaded", "threaded-after-download", "spin-no-source", "spin-past-deadline"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "firstItemSeconds", "mainThreadMaxStallSeconds", "droppedFrames"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertEqual(metrics["itemsShown"] as? Int, 30)
            if variant["name"] as? String != "no-thread" {
                XCTAssertEqual(metrics["callbacksOffNetworkThread"] as? Int, 0)
                XCTAssertNotNil(metrics["networkThreadCPUSeconds"])
                XCTAssertNotNil(metrics["loopIterations"])
            }
        }
    }

    func testOneVariantWithoutTheComparison() throws {
        let outcome = try Self.lesson02(["--json", "--variant", "threaded", "--no-compare", "--items", "5", "--latency", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["variants"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["threaded"])
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
                                  (["--items", "0"], "--items"), (["--bandwidth", "-5"], "--bandwidth"),
                                  (["--server", "ftp://x"], "--server"), (["--fault", "gremlins"], "--fault"),
                                  (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson02(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson02(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--items", "--compare", "--no-compare", "--fault"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testABrokenFeedIsAClearError() throws {
        let outcome = try Self.lesson02(["--fault", "malformed", "--variant", "threaded", "--no-compare", "--latency", "0",
                                         "--bandwidth", "0", "--json"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("not well-formed XML (line"), outcome.stderr)
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try Self.lesson02(["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json"], timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }
}
