import ArgumentParser
import Foundation
import Lesson03Kit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson03: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized(
            "GCD queues: a public timeline and its icons, fetched on the main thread and then on queues."),
        discussion: localized(
            "The no-thread variant fetches the timeline and every icon on the main thread, so the Screen freezes until each screenful is in. The threaded variant fetches on a timeline queue and an image queue and hands each result to the main queue, so the Screen keeps drawing. The async variant does the same job the Swift 6 way: a task on the main actor that awaits the timeline and a task group for the icons, with no queue or thread of its own."
        ),
        localized(
            "As in the article, an icon is fetched only when its row comes on the screen (--visible-rows), the user scrolls (--scroll), and fetched icons are kept in a cache (--no-cache shows the waste)."
        ),
        localized(
            "Source: \"Grand Central Dispatchで楽々マルチスレッド\" and \"iPhoneアプリのサクサク感が出ない件について\" (the lesson text gives the details: Lessons/03-gcd-queues.md, in Japanese Lessons/ja/03-gcd-queues.md)."
        ))
    static let contract = LessonContract.lesson03

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson03>

    @Option(Lesson03Flags.rows, help: localized("Timeline entries to fetch"), valueName: "n")
    var rows = 20

    @Option(
        Lesson03Flags.imageWidth,
        help: localized("Icon fetches that may run at once in the threaded and async variants"),
        note: localized("the article's serial image queue is 1"), valueName: "k")
    var imageWidth = 1

    @Option(
        Lesson03Flags.visibleRows, help: localized("Rows that fit on the screen; only they get icons"), valueName: "n")
    var visibleRows = 8

    @Option(
        help: ArgumentHelp(
            localized(
                "The user's scrolls, each made once the screen has settled: moves like 'down 8' or 'up 8', separated by commas, or 'none'."
            ),
            valueName: "moves"))
    var scroll = "down 8, down 8, up 8, up 8"

    @Flag(
        help: ArgumentHelp(
            localized("Do not keep fetched icons: a row scrolled back into view fetches its icon again.")))
    var noCache = false

    func validate() throws {
        try Lesson03Flags.visibleRows.check(visibleRows)
        do { _ = try TimelineRun.scrollMoves(scroll) } catch { throw ValidationError("--scroll: \(error)") }
        try Lesson03Flags.rows.check(rows)
        try Lesson03Flags.imageWidth.check(imageWidth)
    }

    func prepare() throws -> FixtureEndpoint { try network.makeEndpoint() }

    func banner(_ endpoint: FixtureEndpoint) -> String {
        localized(
            rows == 1
                ? "Lesson 03: GCD queues. A public timeline of %d post and its icon, from %@"
                : "Lesson 03: GCD queues. A public timeline of %d posts and their icons, from %@", rows,
            endpoint.baseURL.absoluteString) + "\n" + localized("(%@).", endpoint.linkDescription) + "\n"
            + localized(
                visibleRows == 1
                    ? "%1$d row on the screen, scrolls: %2$@; icon cache %3$@."
                    : "%1$d rows on the screen, scrolls: %2$@; icon cache %3$@.", visibleRows, scroll,
                localized(noCache ? "off" : "on"))
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded:
            let queues =
                imageWidth == 1 ? localized("one serial image-queue") : localized("%d image queues", imageWidth)
            return localized("threaded: timeline on timeline-queue, icons on %@, UI on main", queues)
        case .async:
            let width = imageWidth == 1 ? localized("one icon at a time") : localized("%d icons at a time", imageWidth)
            return localized(
                "async: timeline awaited in a main-actor task, icons in a task group (%@), set on the main actor", width
            )
        case .noThread:
            return localized(
                "no-thread: fetch the timeline, then each icon while drawing its row, all on the main thread")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup endpoint: FixtureEndpoint, output: ScreenOutput)
        -> VariantRun<TimelineDetails>
    {
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.visibleRows = visibleRows
        settings.scrollMoves = (try? TimelineRun.scrollMoves(scroll)) ?? []
        settings.cache = !noCache
        settings.output = output
        settings.cancelAfter = common.cancelAfter
        // Every request may take the whole --timeout: the timeline, then at most rows + a
        // screenful per scroll of icons, one after another at worst.
        let requests = rows + 1 + visibleRows * settings.scrollMoves.count
        settings.timeoutSeconds = Double(requests) * (endpoint.knobs.latencySeconds + 1) + 2 * endpoint.timeoutSeconds
        return TimelineRun.perform(variant, endpoint: endpoint, settings: settings)
    }

    func parameters(_ endpoint: FixtureEndpoint) -> [(MetricName, Metric)] {
        [
            (.rows, .count(rows)), (.imageWidth, .count(imageWidth)), (.visibleRows, .count(visibleRows)),
            (.scroll, .text(scroll)), (.iconCache, .text(noCache ? "off" : "on")),
        ] + endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<TimelineDetails>]) -> String { TimelineRun.takeaway(runs, cache: !noCache) }
}
