import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson07` binary, the way a learner or a script would.
final class Lesson07CLITests: XCTestCase {
    func lesson07(_ arguments: [String], timeout: Double = 60) throws -> LessonBinary.Outcome {
        let outcome = try LessonBinary("lesson07").run(arguments, timeout: timeout)
        if outcome.timedOut { XCTFail("lesson07 \(arguments) did not finish within \(timeout) s") }
        return outcome
    }

    func testJSONIsOneDocumentWithThreeVariants() throws {
        let outcome = try lesson07(["--json", "--rows", "300", "--width", "30"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(outcome.document, outcome.stdout)
        XCTAssertEqual(document.lesson, "07")
        for (parameter, value) in [(MetricName.rows, 300), (.width, 30)] {
            XCTAssertEqual(document.parameters[parameter] as? Int, value, parameter.rawValue)
        }
        XCTAssertEqual(document.variantNames, ["no-thread", "threaded", "async"])
        let required: [MetricName] = [
            .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames, .cacheHits,
        ]
        var contentHeights: [Int] = []
        XCTAssertEqual(document.lacking(required), [])
        for name in document.variantNames {
            let metrics = document.metrics(name)
            XCTAssertEqual(metrics[.rowsMeasured] as? Int, 300)
            contentHeights.append(try XCTUnwrap(metrics[.contentHeightPoints] as? Int))
        }
        XCTAssertEqual(Set(contentHeights).count, 1, "the same heights every way: \(contentHeights)")
    }

    func testHumanRunDrawsTheArticlesAtTheGivenWidth() throws {
        let outcome = try lesson07(["--rows", "50", "--width", "24", "--corners-svg"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in [
            "    │秋の田の かりほの庵の │", "    │苫をあらみ 我が衣手は │", "scrolls → 56 wide",
            "label.width (horizontal) is not fixed by the constraints", "contradict each other",
            "25, 30, 35, 40, 45, 50 points", "╭──────────╮", #"<path d="M2 0 L10 0 A2 2 0 0 1 12 2"#,
        ] {
            XCTAssertTrue(outcome.stdout.contains(line), "output lacks \(line):\n\(outcome.stdout)")
        }
    }

    func testOneOrTwoVariants() throws {
        try XCTSkipUnless(SlowTier.isEnabled, SlowTier.skipReason)
        for (variant, names) in [
            ("threaded", ["threaded"]), ("async", ["async"]), ("both", ["no-thread", "threaded"]),
        ] {
            let outcome = try lesson07(["--json", "--variant", variant, "--rows", "20", "--tasks", "2"])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.document?.variantNames, names, variant)
            XCTAssertEqual(outcome.document?.parameters[.tasks] as? Int, 2)
        }
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [
            (["--variant", "sideways"], "--variant"), (["--width", "5"], "--width"),
            (["--rows", "0"], "--rows"), (["--chunk-size", "0"], "--chunk-size"),
            (["--width", "wide"], "--width"), (["--no-such-flag"], "--no-such-flag"),
            (["--tasks", "0"], "--tasks"), (["--tasks", "9"], "--tasks"),
        ] {
            let outcome = try lesson07(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try lesson07(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in [
            "--variant", "--json", "--width", "--rows", "--chunk-size", "--tasks", "--svg", "--corners-svg", "async",
        ] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }
}
