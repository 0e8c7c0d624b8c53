import ArgumentParser
import Foundation
import Lesson02Kit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson02: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized(
            "A run-loop thread: a news feed fetched and push-parsed on a network thread that sleeps in its run loop between callbacks, and the same with async/await and no thread at all."
        ),
        discussion: localized(
            "The no-thread variant downloads the whole XML feed on the main thread and parses it afterwards. The threaded variant gets every fetch callback on a thread that sleeps in its run loop and parses each chunk as it arrives; beside it run the same thread with its loop written two spinning ways, and parse-after-download. The async variant needs no thread of its own: URLSession's delegate feeds an AsyncStream that main-actor code awaits, and an actor parses each chunk."
        ),
        localized(
            "Source: \"別スレッドで NSURLConnection を使うときのメモ\" (2010-06-26); see Lessons/02-run-loop-thread.md, in Japanese Lessons/ja/02-run-loop-thread.md."
        ))
    static let contract = LessonContract.lesson02

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson02>
    @Option(
        Lesson02Flags.items, help: localized("Items in the feed"),
        note: localized("140 items is about 1,000 lines of XML"), valueName: "n")
    var items = FeedAPI.defaultItems
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            localized(
                "With the threaded variant, also run the two spinning loops and parse-after-download, for comparison."))
    )
    var compare = true

    func validate() throws { try Lesson02Flags.items.check(items) }

    func prepare() throws -> FixtureEndpoint { try network.makeEndpoint() }

    func feedBytes(_ endpoint: FixtureEndpoint) -> Int {
        FeedAPI.feed(items: items, baseURL: endpoint.baseURL.absoluteString).utf8.count
    }

    func banner(_ endpoint: FixtureEndpoint) -> String {
        localized(
            items == 1
                ? "Lesson 02: a run-loop thread. A feed of %d item (about %d KB of XML) from %@"
                : "Lesson 02: a run-loop thread. A feed of %d items (about %d KB of XML) from %@", items,
            feedBytes(endpoint) / 1000, endpoint.baseURL.absoluteString) + "\n"
            + localized("(%@).", endpoint.linkDescription)
    }

    /// The variants asked for (no-thread, threaded, async), then, with --compare and the threaded
    /// variant, the same thread parsing after the download and spinning two ways.
    func kinds(for variants: [Variant]) -> [FeedRun.Kind] {
        let main = variants.map { variant -> FeedRun.Kind in
            switch variant {
            case .threaded: .threaded(.keepAlive, .streaming)
            case .async: .async
            case .noThread: .noThread
            }
        }
        guard compare, variants.contains(.threaded) else { return main }
        return main + [
            .threaded(.keepAlive, .afterDownload), .threaded(.noSource, .streaming),
            .threaded(.pastDeadline, .streaming),
        ]
    }

    func describe(_ kind: FeedRun.Kind) -> String { kind.explanation }

    @MainActor
    func perform(_ kind: FeedRun.Kind, setup endpoint: FixtureEndpoint, output: ScreenOutput) -> VariantRun<FeedDetails>
    {
        FeedRun.perform(kind, endpoint: endpoint, items: items, output: output, cancelAfter: common.cancelAfter)
    }

    func parameters(_ endpoint: FixtureEndpoint) -> [(MetricName, Metric)] {
        [(.items, .count(items)), (.feedBytes, .bytes(feedBytes(endpoint)))] + endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<FeedDetails>]) -> String { FeedRun.takeaway(runs) }
}
