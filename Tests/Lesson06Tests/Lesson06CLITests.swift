import Foundation
import WorkshopCore
import XCTest

/// Drives the built `lesson06` binary, the way a learner or a script would.
final class Lesson06CLITests: XCTestCase {
    /// Runs the built `lesson06` binary (next to the test bundle), bounded by a timeout.
    static func lesson06(_ arguments: [String], timeout: Double = 90) throws -> Subprocess.Outcome {
        guard let binary = Subprocess.builtProduct("lesson06") else {
            throw XCTSkip("lesson06 is not built next to the tests; run `swift build` first")
        }
        let outcome = try Subprocess.run(binary, arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson06 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithBothVariantsAndEveryStrategysSpeed() throws {
        let outcome = try Self.lesson06(["--json", "--rows", "3000", "--batch-rows", "1000"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "06")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["rows"] as? Int, 3000)
        XCTAssertEqual(parameters["compoundSelectLimit"] as? Int, 500)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames",
                        "perRowCommitRowsPerSecond", "oneTransactionRowsPerSecond", "multiRowBatchesRowsPerSecond"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertGreaterThan(metrics["multiRowBatchesRowsPerSecond"] as? Double ?? 0, 0)
            XCTAssertEqual(metrics["batchCommits"] as? Int, 3)
            XCTAssertEqual(metrics["tornCountReads"] as? Int, 0)
        }
    }

    func testALoweredLimitShowsInTheBatchSize() throws {
        let outcome = try Self.lesson06(["--json", "--variant", "threaded", "--rows", "500", "--variable-limit", "999"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.count, 1)
        XCTAssertEqual((variants[0]["metrics"] as? [String: Any])?["rowsPerStatement"] as? Int, 333)
    }

    func testHumanRunReplaysTheArticleAndLeavesNoFilesBehind() throws {
        let temporary = FileManager.default.temporaryDirectory.path
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("lesson06-") })
        let outcome = try Self.lesson06(["--rows", "2000"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in ["Error: UNIQUE constraint failed: tblA.id", "100||1\n200|b|0\n300||1", "100|A|0\n200|b|0\n300|c|0",
                     "Error: too many terms in compound SELECT", "Error: too many SQL variables", "mainThreadMaxStallSeconds"] {
            XCTAssertTrue(outcome.stdout.contains(line), "output lacks \(line)")
        }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("lesson06-") })
        XCTAssertEqual(after.subtracting(before), [], "database files left behind")
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--rows", "0"], "--rows"),
                                  (["--batch-rows", "0"], "--batch-rows"), (["--variable-limit", "2"], "--variable-limit"),
                                  (["--commit-latency", "5"], "--commit-latency"),
                                  (["--rows", "many"], "--rows"), (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson06(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson06(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--rows", "--full", "--batch-rows", "--variable-limit", "--commit-latency"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }
}
