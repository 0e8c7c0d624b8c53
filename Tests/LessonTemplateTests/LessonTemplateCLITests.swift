import Foundation
import LessonTemplateKit
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lessonTemplate` binary for what is lesson Template's own; what every lesson
/// promises (the report's shape, flags, help, Japanese, a cancel, a failing server) is the
/// contract suite's (`LessonContractTests`, from the contract in the kit). Swift Testing: a
/// program run in a process of its own has a main thread of its own, which Swift Testing gives no
/// test (`MainQueueFactTests`), so the variants run there and the tests read what they report:
/// the `--json` figures and the human report's timelines (where the work was recorded).
@Suite struct LessonTemplateCLITests {
    static let program = "lessonTemplate"

    @Test("every variant shows the rows --rows asks for", arguments: [1, 5])
    func everyVariantShowsTheRowsAskedFor(_ rows: Int) throws {
        let document = try LessonBinary(Self.program).report(["--rows", "\(rows)", "--latency", "0.02"])
        #expect(document.variantNames == Variant.allCases.map(\.rawValue))
        #expect(document.counts(.lessonTemplateRowsShown) == [rows, rows, rows])
    }

    /// Where the work ran decides, not how long a frame took: on a busy machine any variant's
    /// frames can come late, but work recorded on a lane ran there. The no-thread variant's whole
    /// timeline is the main thread's; the others' work is on a queue or in the task pool. And the
    /// no-thread variant waited out the 0.1 s latency on main: a freeze at least that long (load
    /// can only lengthen it).
    @Test("only the no-thread variant does the job on the main thread, and freezes for the wait")
    func onlyTheNoThreadVariantWorksOnMain() throws {
        let lesson = try LessonBinary(Self.program)
        let arguments = ["--rows", "5", "--latency", "0.1"]
        let human = try lesson.run(arguments + ["--lang", "en"])
        #expect(human.status == 0, "\(human.stderr)")
        let lanes = human.timelineLanes
        try #require(lanes.count == Variant.allCases.count, "one timeline a run:\n\(human.stdout)")
        for (variant, lanes) in zip(Variant.allCases, lanes) {
            if variant == .noThread {
                #expect(lanes == ["main"], "no-thread does the job on the main thread, not on \(lanes)")
            } else {
                #expect(!lanes.subtracting(["main"]).isEmpty, "\(variant) did its job on \(lanes)")
            }
        }
        let document = try lesson.report(arguments)
        let frozen = try #require(document.metrics(Variant.noThread.rawValue)[.mainThreadMaxStallSeconds] as? Double)
        #expect(frozen >= 0.09, "the no-thread variant's worst freeze")
    }

    /// A cancel while the answer is on its way (0.1 s latency, the tap at 0.02 s): the threaded and
    /// async variants stop within a second and show nothing after the tap.
    @Test("a cancel while the answer is on its way shows nothing", arguments: [Variant.threaded, .async])
    func aCancelWhileTheAnswerIsOnItsWayShowsNothing(_ variant: Variant) throws {
        let document = try LessonBinary(Self.program).report(
            ["--variant", variant.rawValue, "--rows", "10", "--latency", "0.1", "--cancel-after", "0.02"])
        #expect(document.cancelProblems(variant.rawValue, blocking: false) == [])
    }
}

/// The slow tier (`swift test --filter SlowTests`). What a cancel promises, for every variant:
/// nothing sent or shown after the tap (beyond a request already on its way). Cancel points are
/// random, from a printed seed (`SAKUSAKU_SEED=N` repeats them).
@Suite struct LessonTemplateCancelSlowTests {
    @Test func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
        let lesson = try LessonBinary(LessonTemplateCLITests.program)
        let found = try randomCancelProblems(
            "lesson Template random cancels", Variant.allCases, within: 0...0.2,
            run: { variant, at in
                try lesson.report([
                    "--variant", variant.rawValue, "--rows", "10", "--latency", "0.1",
                    "--cancel-after", String(format: "%.3f", at),
                ])
            },
            problems: { document, variant in
                // The no-thread variant sees the tap only between two blocking calls: no promptness asked.
                document.cancelProblems(variant.rawValue, blocking: variant == .noThread)
            })
        #expect(found == [])
    }
}
