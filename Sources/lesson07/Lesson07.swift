import ArgumentParser
import Foundation
import WorkshopCore

@main
struct Lesson07: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson07",
        abstract: "Layout math: Auto Layout's constraints solved by hand, and 10,000 row heights measured with a sizing cell on and off the main thread.",
        discussion: """
        It first lays out the three Auto Layout articles' screens with a small constraint solver \
        (a wrapping label in a scroll view, table cells of different heights, some corners \
        rounded), then measures every row's height on the main thread (no-thread) or on a \
        background queue while the table shows estimated heights (threaded).
        Sources: "Auto LayoutでUIScrollViewにいれたUILabelを自動改行させる", \
        "AutoLayoutでUITableViewCellに異なる高さを設定する", "SwiftでAuto Layout設定した直後に一部を角丸表示".
        """
    )

    @OptionGroup var common: LessonOptions

    @Option(help: ArgumentHelp("Width of the drawn screen and of the table, in terminal columns (20-200).", valueName: "n"))
    var width = 40

    @Option(help: ArgumentHelp("Rows whose heights are measured (1-100000).", valueName: "n"))
    var rows = 10_000

    @Option(help: ArgumentHelp("Rows the threaded variant measures per trip to the main queue (1-100000).", valueName: "n"))
    var chunkSize = 500

    @Flag(help: "Also print the rounded-corner outlines as SVG.")
    var svg = false

    func validate() throws {
        guard (20...200).contains(width) else { throw ValidationError("--width must be between 20 and 200 (got \(width))") }
        guard (1...100_000).contains(rows) else { throw ValidationError("--rows must be between 1 and 100000 (got \(rows))") }
        guard (1...100_000).contains(chunkSize) else {
            throw ValidationError("--chunk-size must be between 1 and 100000 (got \(chunkSize))")
        }
    }

    func run() throws {
        let human = !common.json
        if human {
            say("Lesson 07: layout math. Every frame below comes from solving the constraints; none is typed in.\n")
            try LayoutTour(width: width, svg: svg).printAll()
            say("\n5. Row heights for \(rows) timeline posts at \(width) columns (sizing cell, height cache)\n")
        }
        var settings = HeightsRun.Settings()
        settings.rows = rows
        settings.width = width
        settings.chunkSize = chunkSize
        settings.output = .automatic(json: common.json)
        var runs: [HeightsRun] = []
        for variant in common.variant.selected {
            if human {
                say(variant == .noThread
                    ? "no-thread: measure every row on the main thread, then draw the table"
                    : "threaded: draw with estimated heights now, measure on height-queue in chunks of \(chunkSize), reload on main")
            }
            let run = HeightsRun.perform(variant, settings: settings)
            if human, let failure = run.failure { say("  failed: \(failure)") }
            runs.append(run)
        }
        if runs.count == 2, runs[0].heights != runs[1].heights {
            warn("the two variants measured different heights")
        }
        let report = LessonReport(
            lesson: "07", title: "Layout math: sizing-cell row heights",
            parameters: [("rows", .count(rows)), ("width", .count(width)), ("chunkSize", .count(chunkSize)),
                         ("estimatedHeightPoints", .count(Int(settings.estimatedHeight)))],
            variants: runs.map { VariantResult(name: $0.variant.rawValue, metrics: $0.metrics) },
            takeaway: Self.takeaway(runs))
        say(common.json ? report.json : "\n" + report.table + "\n\n" + report.takeaway)
        if let failed = runs.first(where: { $0.failure != nil }) {
            throw LessonFailure("the \(failed.variant.rawValue) variant failed: \(failed.failure!)")
        }
    }

    /// One line on what the numbers mean, written from the numbers.
    static func takeaway(_ runs: [HeightsRun]) -> String {
        guard let plain = runs.first(where: { $0.variant == .noThread }),
              let queued = runs.first(where: { $0.variant == .threaded }) else {
            return "Run both variants (the default) to compare them."
        }
        return String(format: """
            The same %d heights either way; measured off the main thread, the table was on screen after \
            %.3f s instead of %.2f s and the worst freeze went from %.2f s to %.3f s.
            """, plain.heights.count, queued.screen.firstRowsSeconds ?? 0, plain.screen.firstRowsSeconds ?? 0,
            plain.screen.maxStallSeconds, queued.screen.maxStallSeconds)
    }
}

/// A failure the lesson explains in one sentence; exits with status 1.
struct LessonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
