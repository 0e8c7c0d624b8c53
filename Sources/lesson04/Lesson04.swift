import ArgumentParser
import Foundation
import Lesson04Kit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson04: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized(
            "gzip on the wire: three XML APIs fetched without and with compression, timed like the article."),
        discussion: localized(
            "Each variant fetches three XML APIs over a slow link twice, first asking for identity and then for gzip, and times start, response, last byte and parse for each. The no-thread variant does it one API after another on the main thread; the threaded one starts all three together and parses off the main thread; the async one does the same in Swift 6, a task group of three child tasks that await the downloads and parse off the main actor, with no queue of its own."
        ),
        localized(
            "Source: \"iPhone の NSURLRequest で gzip 使ってみた\" (the lesson text gives the details: Lessons/04-gzip.md, in Japanese Lessons/ja/04-gzip.md)."
        ))
    static let contract = LessonContract.lesson04

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson04>

    /// Our own fixture server, logging every response's wire bytes into a ledger; or `--server`.
    func prepare() throws -> GzipSetup {
        let ledger = WireLedger()
        let endpoint = try network.makeEndpoint(onRequest: ledger.record)
        return GzipSetup(endpoint: endpoint, ledger: endpoint.server == nil ? nil : ledger)
    }

    func banner(_ setup: GzipSetup) -> String {
        localized(
            "Lesson 04: gzip on the wire. Three XML APIs (%1$@) from %2$@",
            XMLAPIs.all.map(\.path).joined(separator: ", "), setup.endpoint.baseURL.absoluteString) + "\n"
            + localized("(%@; the bandwidth is per connection).", setup.endpoint.linkDescription) + "\n"
            + localized(
                setup.ledger == nil
                    ? "Times are seconds since the round started; wire B is Content-Length (the server is not ours to count)."
                    : "Times are seconds since the round started; wire B is counted by the server: head and body as sent."
            )
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded: localized("threaded: all three started together, parsed on parse-queue, rows added on main")
        case .async:
            localized(
                "async: a task group of three per round, awaited and parsed off main, rows added on the main actor")
        case .noThread: localized("no-thread: each API in turn on the main thread, the main thread waits, then parses")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup: GzipSetup, output: ScreenOutput) -> VariantRun<GzipDetails> {
        var settings = GzipRun.Settings()
        settings.output = output
        settings.perAPIMetrics = common.json
        settings.cancelAfter = common.cancelAfter
        return GzipRun.perform(variant, endpoint: setup.endpoint, ledger: setup.ledger, settings: settings)
    }

    func parameters(_ setup: GzipSetup) -> [(MetricName, Metric)] {
        [(.apis, .text(XMLAPIs.all.map(\.name).joined(separator: ",")))] + setup.endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<GzipDetails>]) -> String { GzipRun.takeaway(runs) }
}
