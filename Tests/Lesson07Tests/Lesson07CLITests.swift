import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson07` binary for what is lesson 07's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel) is the contract suite's
/// (`LessonContractTests`, from `LessonContract.lesson07`).
final class Lesson07CLITests: XCTestCase {
    /// Every row measured, and the same heights every way.
    func testEveryVariantMeasuresTheSameHeights() throws {
        let document = try LessonBinary("lesson07").report(["--rows", "300", "--width", "30"])
        var contentHeights: [Int] = []
        for name in document.variantNames {
            let metrics = document.metrics(name)
            XCTAssertEqual(metrics[.rowsMeasured] as? Int, 300, name)
            contentHeights.append(try XCTUnwrap(metrics[.contentHeightPoints] as? Int, name))
        }
        XCTAssertEqual(Set(contentHeights).count, 1, "the same heights every way: \(contentHeights)")
    }

    func testHumanRunDrawsTheArticlesAtTheGivenWidth() throws {
        let outcome = try LessonBinary("lesson07").run(["--rows", "50", "--width", "24", "--corners-svg"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in [
            "    │秋の田の かりほの庵の │", "    │苫をあらみ 我が衣手は │", "scrolls → 56 wide",
            "label.width (horizontal) is not fixed by the constraints", "contradict each other",
            "25, 30, 35, 40, 45, 50 points", "╭──────────╮", #"<path d="M2 0 L10 0 A2 2 0 0 1 12 2"#,
        ] {
            XCTAssertTrue(outcome.stdout.contains(line), "output lacks \(line):\n\(outcome.stdout)")
        }
    }
}
