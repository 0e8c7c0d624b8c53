import ArgumentParser
import Foundation
import Lesson01Kit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson01: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized(
            "Operation queues: log in, get the user, fetch several items and cancel one, first with blocking calls on the main thread, then as concurrent Operation subclasses on a queue, then with async/await."
        ),
        discussion: localized(
            "The no-thread variant waits for every request on the main thread; the threaded variant runs FetchOperations and ParseOperations on a queue and cancels the slow item mid-flight; the async variant does the same with async let, a task group of the same width and a cancelled Task, on the main actor."
        ),
        localized(
            "Source: \"NSOperation を使って外部 API から非同期に結果を取得してみる\" (2010-06-19); see Lessons/01-operation-queue.md, in Japanese Lessons/ja/01-operation-queue.md."
        ))
    static let contract = LessonContract.lesson01

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson01>
    @Option(Lesson01Flags.items, help: localized("Items to fetch after logging in"), valueName: "n")
    var items = 6
    @Option(
        Lesson01Flags.width,
        help: localized(
            "maxConcurrentOperationCount of the threaded variant's queue, and the async variant's task group width"),
        valueName: "k")
    var width = AccountRun.Settings().width
    @Option(
        Lesson01Flags.slowLatency,
        help: localized("Seconds the server takes for the slow item, the one the user cancels"), valueName: "seconds")
    var slowLatency = 2.0
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(localized("Cancel the slow item (item 1) as soon as the first item is on screen.")))
    var cancel = true
    @Flag(
        help: ArgumentHelp(
            localized(
                "Only show why the queue hangs when an operation with isAsynchronous = true does not announce isFinished."
            )))
    var showHang = false

    func validate() throws {
        try Lesson01Flags.items.check(items)
        try Lesson01Flags.width.check(width)
        try Lesson01Flags.slowLatency.check(slowLatency)
        // A demonstration of its own: it ends the program here, the way --help does.
        if showHang { throw CleanExit.message(WhyNotify.report()) }
    }

    func prepare() throws -> AccountPlan {
        AccountPlan(
            endpoint: try network.makeEndpoint(), itemCount: items, slowItem: cancel ? 1 : nil,
            slowItemLatencySeconds: slowLatency)
    }

    func banner(_ plan: AccountPlan) -> String {
        localized(
            items == 1
                ? "Lesson 01: operation queues. Log in, get the user, read a bundled note and fetch %d item from %@"
                : "Lesson 01: operation queues. Log in, get the user, read a bundled note and fetch %d items from %@",
            items, plan.endpoint.baseURL.absoluteString) + "\n"
            + localized(
                "(%@).",
                plan.endpoint.linkDescription
                    + (cancel ? localized("; item 1 takes %@ s more and the user cancels it", "\(slowLatency)") : ""))
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .noThread: localized("no-thread: every request sent from the main thread, each waited for in turn")
        case .async:
            localized(
                "async: login awaited, then a task group of %d on the main actor; each await holds no thread", width)
        case .threaded:
            localized(
                "threaded: FetchOperations and ParseOperations on one OperationQueue, %d at a time; results hop to main",
                width)
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup plan: AccountPlan, output: ScreenOutput) -> VariantRun<AccountDetails> {
        var settings = AccountRun.Settings(width: width, output: output)
        settings.cancelAfter = common.cancelAfter
        return AccountRun.perform(variant, plan: plan, settings: settings)
    }

    func parameters(_ plan: AccountPlan) -> [(MetricName, Metric)] {
        [
            (.items, .count(items)), (.width, .count(width)), (.slowLatencySeconds, .seconds(slowLatency)),
            (.cancel, .text(cancel ? "item 1" : "none")),
        ] + plan.endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<AccountDetails>]) -> String { AccountRun.takeaway(runs) }
}
