import ArgumentParser
import Foundation
import Lesson07Kit
import WorkshopCore

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson07: LessonProgram {
    static let configuration = CommandConfiguration(
        commandName: "lesson07",
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
            """)
    )
    static let number = "07"
    static let title = "Layout math: sizing-cell row heights"

    @OptionGroup var common: LessonOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized("Width of the drawn screen and of the table, in terminal columns (20-200)."), valueName: "n"))
    var width = 40

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(localized("Rows whose heights are measured (1-100000)."), valueName: "n"))
    var rows = 10_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized("Rows the threaded variant measures per trip to the main queue (1-100000)."), valueName: "n"))
    var chunkSize = 500

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                "Chunks the async variant's task group measures at once (1-8; 1 is the threaded variant's one queue)."
            ),
            valueName: "n"))
    var tasks = 1

    // Not `--svg`: every lesson's `--svg FILE` draws the run's timeline.
    @Flag(help: ArgumentHelp(localized("Also print the rounded-corner outlines of part 4 as SVG paths.")))
    var cornersSVG = false

    func validate() throws {
        guard (20...200).contains(width) else {
            throw ValidationError(localized("--width must be between 20 and 200 (got %d)", width))
        }
        for (flag, value) in [("--rows", rows), ("--chunk-size", chunkSize)] where !(1...100_000).contains(value) {
            throw ValidationError(localized("%@ must be between 1 and 100000 (got %d)", flag, value))
        }
        guard (1...8).contains(tasks) else {
            throw ValidationError(localized("--tasks must be between 1 and 8 (got %d)", tasks))
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
            localized(
                "async: draw with estimated heights now, measure chunks of %d in a task group of width %d, reload on the main actor",
                chunkSize, tasks)
        case .noThread: localized("no-thread: measure every row on the main thread, then draw the table")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup: NoSetup, output: ScreenOutput) -> VariantRun<HeightsDetails> {
        var settings = HeightsRun.Settings(rows: rows, width: width, chunkSize: chunkSize, tasks: tasks, output: output)
        settings.cancelAfter = common.cancelAfter
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
