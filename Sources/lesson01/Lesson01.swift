import ArgumentParser
import Lesson01Kit
import WorkshopCore

@main
struct Lesson01: LessonProgram, NetworkDefaults {
    static let configuration = CommandConfiguration(
        commandName: "lesson01",
        abstract:
            "Operation queues: log in, get the user, fetch several items and cancel one, first with blocking calls on the main thread, then as concurrent Operation subclasses on a queue, then with async/await.",
        discussion: """
            The no-thread variant waits for every request on the main thread; the threaded variant runs \
            FetchOperations and ParseOperations on a queue and cancels the slow item mid-flight; the async variant \
            does the same with async let, a task group of the same width and a cancelled Task, on the main actor.
            Source: "NSOperation を使って外部 API から非同期に結果を取得してみる" (2010-06-19); see Lessons/01-operation-queue.md, in Japanese Lessons/ja/01-operation-queue.md.
            """
    )
    static let number = "01"
    static let title = "Operation queues: login, user, items, one cancelled"
    static let defaultLatency = 0.15
    static let defaultBandwidth = 50_000

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson01>
    @Option(parsing: .unconditional, help: ArgumentHelp("Items to fetch after logging in (1-100).", valueName: "n"))
    var items = 6
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "maxConcurrentOperationCount of the threaded variant's queue, and the async variant's task group width (1-16).",
            valueName: "k"))
    var width = 2
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the server takes for the slow item, the one the user cancels (0-30).", valueName: "seconds"))
    var slowLatency = 2.0
    @Flag(inversion: .prefixedNo, help: "Cancel the slow item (item 1) as soon as the first item is on screen.")
    var cancel = true
    @Flag(
        help: "Only show why the queue hangs when an operation with isAsynchronous = true does not announce isFinished."
    )
    var showHang = false

    func validate() throws {
        guard (1...100).contains(items) else {
            throw ValidationError("--items must be between 1 and 100 (got \(items))")
        }
        guard (1...16).contains(width) else { throw ValidationError("--width must be between 1 and 16 (got \(width))") }
        guard (0...30).contains(slowLatency) else {
            throw ValidationError("--slow-latency must be between 0 and 30 seconds (got \(slowLatency))")
        }
        // A demonstration of its own: it ends the program here, the way --help does.
        if showHang { throw CleanExit.message(WhyNotify.report()) }
    }

    func prepare() throws -> AccountPlan {
        AccountPlan(
            endpoint: try network.makeEndpoint(), itemCount: items, slowItem: cancel ? 1 : nil,
            slowItemLatencySeconds: slowLatency)
    }

    func banner(_ plan: AccountPlan) -> String {
        """
        Lesson 01: operation queues. Log in, get the user, read a bundled note and fetch \(counted(items, "item")) from \(plan.endpoint.baseURL.absoluteString)
        (\(plan.endpoint.linkDescription)\(cancel ? "; item 1 takes \(slowLatency) s more and the user cancels it" : "")).
        """
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .noThread: "no-thread: every request sent from the main thread, each waited for in turn"
        case .async:
            "async: login awaited, then a task group of \(width) on the main actor; each await holds no thread"
        case .threaded:
            "threaded: FetchOperations and ParseOperations on one OperationQueue, \(width) at a time; results hop to main"
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
