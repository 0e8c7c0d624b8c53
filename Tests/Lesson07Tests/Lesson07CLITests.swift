import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson07` binary for what is lesson 07's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel) is the contract suite's
/// (`LessonContractTests`, from `LessonContract.lesson07`).
@Suite struct Lesson07CLITests {
    @Test("every row measured, and the same heights every way")
    func everyVariantMeasuresTheSameHeights() throws {
        let document = try LessonBinary("lesson07").report(["--rows", "300", "--width", "30"])
        var contentHeights: [Int] = []
        for name in document.variantNames {
            let metrics = document.metrics(name)
            #expect(metrics[.rowsMeasured] as? Int == 300, "\(name)")
            contentHeights.append(try #require(metrics[.contentHeightPoints] as? Int, "\(name)"))
        }
        #expect(Set(contentHeights).count == 1, "the same heights every way: \(contentHeights)")
    }

    @Test func humanRunDrawsTheArticlesAtTheGivenWidth() throws {
        let outcome = try LessonBinary("lesson07").run(["--rows", "50", "--width", "24", "--corners-svg"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for line in [
            "    │秋の田の かりほの庵の │", "    │苫をあらみ 我が衣手は │", "scrolls → 56 wide",
            "label.width (horizontal) is not fixed by the constraints", "contradict each other",
            "25, 30, 35, 40, 45, 50 points", "╭──────────╮", #"<path d="M2 0 L10 0 A2 2 0 0 1 12 2"#,
        ] {
            #expect(outcome.stdout.contains(line), "output lacks \(line):\n\(outcome.stdout)")
        }
    }
}
