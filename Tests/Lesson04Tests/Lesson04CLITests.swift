import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson04` binary, the way a learner or a script would.
final class Lesson04CLITests: XCTestCase {
    /// Runs the built `lesson04` binary (next to the test bundle), bounded by a timeout.
    static func lesson04(_ arguments: [String], timeout: Double = 60) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson04") else {
            throw XCTSkip("lesson04 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson04 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithBothVariants() throws {
        let outcome = try Self.lesson04(["--json", "--latency", "0.02", "--bandwidth", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "04")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["latencySeconds"] as? Double, 0.02)
        XCTAssertEqual(parameters["bandwidthBytesPerSecond"] as? Int, 0)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames",
                        "identityWireBytes", "gzipWireBytes", "decodedBodyBytes", "gzipWireRatio",
                        "catalogIdentityResponseSeconds", "catalogGzipDataSeconds", "friendsGzipParsedSeconds",
                        "statusesGzipWireBytes"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertLessThan(try XCTUnwrap(metrics["gzipWireRatio"] as? Double), 0.3)
            XCTAssertEqual(metrics["recordsParsed"] as? Int, 2 * XMLAPIsCount.records)
        }
    }

    func testOneVariant() throws {
        let outcome = try Self.lesson04(["--json", "--variant", "threaded", "--latency", "0", "--bandwidth", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["variants"] as? [[String: Any]])?.count, 1)
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
                                  (["--bandwidth", "-5"], "--bandwidth"), (["--server", "ftp://x"], "--server"),
                                  (["--timeout", "0"], "--timeout"), (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson04(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson04(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--timeout"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try Self.lesson04(["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json", "--timeout", "5"],
                                        timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }
}

/// 60 friends + 90 statuses + 90 items: one round's records with the default counts.
enum XMLAPIsCount {
    static let records = 240
}
