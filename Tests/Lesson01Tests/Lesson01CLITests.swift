import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson01` binary, the way a learner or a script would.
final class Lesson01CLITests: XCTestCase {
    /// Runs the built `lesson01` binary (next to the test bundle), bounded by a timeout.
    static func lesson01(_ arguments: [String], timeout: Double = 60) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson01") else {
            throw XCTSkip("lesson01 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson01 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithBothVariants() throws {
        let outcome = try Self.lesson01(["--json", "--items", "3", "--latency", "0.02", "--slow-latency", "0.5"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "01")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["items"] as? Int, 3)
        XCTAssertEqual(parameters["latencySeconds"] as? Double, 0.02)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames",
                        "maxConcurrentOperationsSeen", "completionOrder", "cancelledItemDelivered", "requestsServed"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            // login, get-user and 3 items (the welcome note is a data: URL, not a request)
            XCTAssertEqual(metrics["requestsServed"] as? Int, 5)
        }
    }

    func testOneVariant() throws {
        let outcome = try Self.lesson01(["--json", "--variant", "threaded", "--items", "2", "--latency", "0", "--no-cancel"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["variants"] as? [[String: Any]])?.count, 1)
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--latency", "-1"], "--latency"),
                                  (["--items", "0"], "--items"), (["--bandwidth", "-5"], "--bandwidth"),
                                  (["--server", "ftp://x"], "--server"), (["--width", "99"], "--width"),
                                  (["--slow-latency", "31"], "--slow-latency"), (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson01(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson01(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--latency", "--bandwidth", "--server", "--items", "--width",
                     "--slow-latency", "--cancel", "--show-hang"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }

    func testShowHangExplainsTheMissingAnnouncement() throws {
        let outcome = try Self.lesson01(["--show-hang"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("isFinished = true, completionBlock ran = false, dependant ran = false"), outcome.stdout)
    }

    func testAnUnreachableServerIsAClearErrorNotAHang() throws {
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try Self.lesson01(["--server", "http://127.0.0.1:9", "--variant", "threaded", "--json"], timeout: 60)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("failed"), outcome.stderr)
    }
}
