import ArgumentParser
import Foundation
import LessonTemplateKit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct LessonTemplate: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized("the title of the lesson: the same job on the main thread, on a queue, and in a task."),
        discussion: localized(
            "The no-thread variant does the job on the main thread; the threaded one on a queue of its own, handing the rows to the main queue; the async one in a main-actor task that awaits the work done off the main actor."
        ))
    static let contract = LessonContract.lessonTemplate

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<LessonTemplate>

    @Option(LessonTemplateFlags.rows, help: localized("Rows to show"), valueName: "n")
    var rows = 20

    func validate() throws { try LessonTemplateFlags.rows.check(rows) }

    func prepare() throws -> FixtureEndpoint { try network.makeEndpoint() }

    func banner(_ endpoint: FixtureEndpoint) -> String {
        localized("Lesson Template: the title of the lesson. %d rows from %@", rows, endpoint.baseURL.absoluteString)
            + "\n" + localized("(%@).", endpoint.linkDescription) + "\n"
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .noThread: localized("no-thread: the job on the main thread")
        case .threaded: localized("threaded: the job on rows-queue, the rows shown on main")
        case .async: localized("async: a main-actor task awaits the job, done off main; the rows shown on main")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup endpoint: FixtureEndpoint, output: ScreenOutput)
        -> VariantRun<RowsDetails>
    {
        var settings = RowsRun.Settings()
        settings.count = rows
        settings.output = output
        settings.cancelAfter = common.cancelAfter
        settings.timeoutSeconds = 2 * endpoint.timeoutSeconds + endpoint.knobs.latencySeconds + 10
        return RowsRun.perform(variant, endpoint: endpoint, settings: settings)
    }

    func parameters(_ endpoint: FixtureEndpoint) -> [(MetricName, Metric)] {
        [(.items, .count(rows))] + endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<RowsDetails>]) -> String { RowsRun.takeaway(runs) }
}
