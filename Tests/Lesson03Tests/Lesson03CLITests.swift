import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson03` binary, the way a learner or a script would.
final class Lesson03CLITests: XCTestCase {
    /// Runs the built `lesson03` binary (next to the test bundle), bounded by a timeout.
    static func lesson03(_ arguments: [String], timeout: Double = 60) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson03") else {
            throw XCTSkip("lesson03 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson03 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithBothVariants() throws {
        let outcome = try Self.lesson03(["--json", "--rows", "4", "--latency", "0.02"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "03")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["rows"] as? Int, 4)
        XCTAssertEqual(parameters["latencySeconds"] as? Double, 0.02)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames", "requestsServed"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertEqual(metrics["requestsServed"] as? Int, 5)
        }
    }

    func testOneVariant() throws {
        let outcome = try Self.lesson03(["--json", "--variant", "threaded", "--rows", "2", "--latency", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["variants"] as? [[String: Any]])?.count, 1)
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
                                  (["--rows", "0"], "--rows"), (["--bandwidth", "-5"], "--bandwidth"),
                                  (["--server", "ftp://x"], "--server"), (["--image-width", "99"], "--image-width"),
                                  (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson03(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson03(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--rows", "--image-width"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try Self.lesson03(["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json"], timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }
}
