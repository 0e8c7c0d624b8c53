import ArgumentParser
import Foundation
import Lesson07Kit
import WorkshopCore

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson07: LessonProgram {
    static let configuration = commandConfiguration(
        abstract: localized(
            "Layout math: Auto Layout's constraints solved by hand, and 10,000 row heights measured with a sizing cell on and off the main thread."
        ),
        discussion: localized(
            """
            It first lays out the three Auto Layout articles' screens with a small constraint solver \
            (a wrapping label in a scroll view, table cells of different heights, some corners \
            rounded), then measures every row's height on the main thread (no-thread) or on a \
            background queue while the table shows estimated heights (threaded), or in a task group \
            off the main actor, applied on the main actor, in Swift 6 (async).
            Sources: "Auto LayoutでUIScrollViewにいれたUILabelを自動改行させる", \
            "AutoLayoutでUITableViewCellに異なる高さを設定する", "SwiftでAuto Layout設定した直後に一部を角丸表示"; \
            see Lessons/07-layout-math.md, in Japanese Lessons/ja/07-layout-math.md.
            """))
    static let contract = LessonContract.lesson07

    @OptionGroup var common: LessonOptions

    @Option(
        Lesson07Flags.width, help: localized("Width of the drawn screen and of the table, in terminal columns"),
        valueName: "n")
    var width = HeightsRun.Settings().width

    @Option(Lesson07Flags.rows, help: localized("Rows whose heights are measured"), valueName: "n")
    var rows = HeightsRun.Settings().rows

    @Option(
        Lesson07Flags.chunkSize, help: localized("Rows the threaded variant measures per trip to the main queue"),
        valueName: "n")
    var chunkSize = HeightsRun.Settings().chunkSize

    @Option(
        Lesson07Flags.tasks, help: localized("Chunks the async variant's task group measures at once"),
        note: localized("1 is the threaded variant's one queue"), valueName: "n")
    var tasks = HeightsRun.Settings().tasks

    @Option(
        help: ArgumentHelp(
            localized(
                "The async variant measures chunk by chunk in one function the main actor awaits, declared nonisolated(nonsending) (it runs on its caller's actor, as a plain nonisolated async function does with Approachable Concurrency on: in this package and in new Xcode 26 app projects) or @concurrent (it leaves it, as the plain function does with the setting off). Without it: the task group."
            ),
            valueName: "nonsending|concurrent"))
    var stepIsolation: String?

    // Not `--svg`: every lesson's `--svg FILE` draws the run's timeline.
    @Flag(help: ArgumentHelp(localized("Also print the rounded-corner outlines of part 4 as SVG paths.")))
    var cornersSVG = false

    func validate() throws {
        try Lesson07Flags.width.check(width)
        try Lesson07Flags.rows.check(rows)
        try Lesson07Flags.chunkSize.check(chunkSize)
        try Lesson07Flags.tasks.check(tasks)
        if let stepIsolation, StepIsolation(rawValue: stepIsolation) == nil {
            throw ValidationError(
                localized("--step-isolation takes nonsending or concurrent, not '%@'.", stepIsolation))
        }
    }

    func prepare() -> NoSetup { NoSetup() }

    func banner(_ setup: NoSetup) -> String {
        """
        \(localized("Lesson 07: layout math. Every frame below comes from solving the constraints; none is typed in."))

        \(LayoutTour.text(width: width, svg: cornersSVG))

        \(localized("5. Row heights for %d timeline posts at %d columns (sizing cell, height cache)", rows, width))
        """
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded:
            localized(
                "threaded: draw with estimated heights now, measure on height-queue in chunks of %d, reload on main",
                chunkSize)
        case .async:
            switch stepIsolation.flatMap(StepIsolation.init(rawValue:)) {
            case .nonsending?:
                localized(
                    "async: draw with estimated heights now, then await each chunk of %d in a nonisolated(nonsending) function: it runs on its caller's actor, main",
                    chunkSize)
            case .concurrent?:
                localized(
                    "async: draw with estimated heights now, then await each chunk of %d in a @concurrent function: it runs on the task pool",
                    chunkSize)
            case nil:
                localized(
                    "async: draw with estimated heights now, measure chunks of %d in a task group of width %d, reload on the main actor",
                    chunkSize, tasks)
            }
        case .noThread: localized("no-thread: measure every row on the main thread, then draw the table")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup: NoSetup, output: ScreenOutput) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: width, chunkSize: chunkSize, tasks: tasks, output: output)
        settings.cancelAfter = common.cancelAfter
        settings.stepIsolation = stepIsolation.flatMap(StepIsolation.init(rawValue:))
        return HeightsRun.perform(variant, settings: settings)
    }

    func parameters(_ setup: NoSetup) -> [(MetricName, Metric)] {
        [
            (.rows, .count(rows)), (.width, .count(width)), (.chunkSize, .count(chunkSize)),
            (.tasks, .count(tasks)),
            (.estimatedHeightPoints, .count(Int(HeightsRun.Settings().estimatedHeight))),
        ]
    }

    func takeaway(_ runs: [VariantRun<HeightsDetails>]) -> String { HeightsRun.takeaway(runs) }
}
