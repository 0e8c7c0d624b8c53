import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson06` binary, the way a learner or a script would.
final class Lesson06CLITests: XCTestCase {
    func lesson06(_ arguments: [String], timeout: Double = 90) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson06").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson06 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithThreeVariantsAndEveryStrategysSpeed() throws {
        let outcome = try lesson06(["--json", "--rows", "3000", "--batch-rows", "1000"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "06")
        for (parameter, value) in [(MetricName.rows, 3000), (.compoundSelectLimit, 500)] {
            XCTAssertEqual(document.parameters[parameter] as? Int, value, parameter.rawValue)
        }
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        let required: [MetricName] = [
            .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames,
            .perRowCommitRowsPerSecond, .oneTransactionRowsPerSecond, .multiRowBatchesRowsPerSecond,
            .updateThenInsertRowsPerSecond, .countReadsOnMain, .tornCountReads,
        ]
        XCTAssertEqual(document.lacking(required), [])
        for name in document.variantNames {
            let metrics = document.metrics(name)
            XCTAssertGreaterThan(metrics[.multiRowBatchesRowsPerSecond] as? Double ?? 0, 0)
            XCTAssertEqual(metrics[.batchCommits] as? Int, 3)
            XCTAssertEqual(metrics[.tornCountReads] as? Int, 0)
        }
    }

    func testBothIsTwoVariantsAndAsyncIsOne() throws {
        for (variant, names) in [("both", ["no-thread", "threaded"]), ("async", ["async"])] {
            let outcome = try lesson06(["--json", "--variant", variant, "--rows", "500"])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, variant)
        }
    }

    func testALoweredLimitShowsInTheBatchSize() throws {
        let outcome = try lesson06(["--json", "--variant", "threaded", "--rows", "500", "--variable-limit", "999"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.variants.count, 1)
        XCTAssertEqual(document.metrics("threaded")[.rowsPerStatement] as? Int, 333)
    }

    func testHumanRunReplaysTheArticleAndLeavesNoFilesBehind() throws {
        // A temporary folder of this test's own (TMPDIR), so that other tests running at the
        // same time (`swift test --parallel`) cannot put files where this one looks.
        let temporary = try ScratchFolder("lesson06-cli-tmp")
        defer { temporary.tearDown() }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.url.path
        environment["NO_COLOR"] = "1"
        let binary = try LessonBinary("lesson06")
        let outcome = try Subprocess.run(binary.path, ["--rows", "2000"], environment: environment, timeout: 90)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in [
            "Error: UNIQUE constraint failed: tblA.id", "100||1\n200|b|0\n300||1", "100|A|0\n200|b|0\n300|c|0",
            "Error: too many terms in compound SELECT", "Error: too many SQL variables",
            MetricName.mainThreadMaxStallSeconds.rawValue,
            "100|B|1\n200|b|0\n300|c|0\n400|d|1", MetricName.updateThenInsertRowsPerSecond.rawValue,
            "async: every strategy in a writer actor",
        ] {
            XCTAssertTrue(outcome.stdout.contains(line), "output lacks \(line)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
        XCTAssertEqual(left, [], "files left behind in the temporary folder")
    }

    func testNoPlaceForTheDatabasesIsOneClearErrorNotATable() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = "/proc/no-such-folder"
        let binary = try LessonBinary("lesson06")
        let outcome = try Subprocess.run(binary.path, ["--rows", "100"], environment: environment, timeout: 60)
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("cannot make a folder for the database files in /proc/no-such-folder"))
        XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "one cause, said once:\n\(outcome.stderr)")
        XCTAssertFalse(
            outcome.stdout.contains(MetricName.mainThreadMaxStallSeconds.rawValue), "a table of runs that never started"
        )
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--rows", "0"], "--rows"),
            (["--batch-rows", "0"], "--batch-rows"), (["--variable-limit", "2"], "--variable-limit"),
            (["--commit-latency", "5"], "--commit-latency"),
            (["--rows", "many"], "--rows"), (["--no-such-flag"], "--no-such-flag"),
        ] {
            let outcome = try lesson06(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson06(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--rows", "--full", "--batch-rows", "--variable-limit", "--commit-latency", "async",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }
}
