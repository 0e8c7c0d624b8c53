import ArgumentParser
import Foundation
import Lesson05Kit
import WorkshopCore
import WorkshopServer

/// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
private let localized = LocalizedTexts { .module }

@main
struct Lesson05: LessonProgram, NetworkDefaults {
    static let configuration = commandConfiguration(
        abstract: localized(
            "Caching: pre-load the local database into a dictionary once, and let a relaunch revalidate instead of downloading again."
        ),
        discussion: localized(
            """
            Each variant launches a small shop app three times: it fetches orders through an \
            on-disk HTTP cache (max-age, then ETag and 304) and looks up each order's product in \
            SQLite, one query per order and then in a dictionary pre-loaded with one query. The \
            no-thread variant does all of it on the main thread; the threaded one pre-loads and \
            downloads on queues while the Screen shows "loading..."; the async one does the same \
            in Swift 6, a task group that awaits the download while an actor pre-loads and parses.
            Source: "Core Data のパフォーマンスをちょっとだけ調べてみた" (2010-05-30) and \
            "iPhoneアプリのサクサク感が出ない件について" (the lesson text gives the details: Lessons/05-caching.md, in Japanese Lessons/ja/05-caching.md).
            """))
    static let contract = LessonContract.lesson05

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson05>

    @Option(Lesson05Flags.products, help: localized("Products in the local database"), valueName: "k")
    var products = 5_000

    @Option(Lesson05Flags.orders, help: localized("Orders the API returns, each naming one product"), valueName: "m")
    var orders = 3_000

    @Option(
        Lesson05Flags.maxAge, help: localized("Seconds of Cache-Control max-age the in-process server sends"),
        note: localized("0 sends none, so every relaunch revalidates"), valueName: "seconds")
    var maxAge = 300

    func validate() throws {
        try Lesson05Flags.products.check(products)
        try Lesson05Flags.orders.check(orders)
        try Lesson05Flags.maxAge.check(maxAge)
    }

    func prepare() throws -> ShopSetup {
        try ShopSetup.prepare(endpoint: network.makeEndpoint(), products: products, orders: orders, maxAge: maxAge)
    }

    func banner(_ setup: ShopSetup) -> String {
        localized("Lesson 05: caching. %1$d orders from %2$@,", orders, setup.ordersURL.absoluteString) + "\n"
            + localized("each naming one of %1$d products kept in SQLite (%2$@).", products, setup.databasePath) + "\n"
            + localized(
                "Server: %1$@, ETag always, %2$@.", setup.endpoint.linkDescription, setup.cacheControl) + "\n"
            + localized(
                "HTTP cache: a small on-disk cache (HTTPDiskCache); on Linux URLSession stores nothing in URLCache and never revalidates."
            )
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded:
            localized(
                "threaded: fetch on network-queue while database-queue pre-loads, parse on parse-queue, UI on main; three launches"
            )
        case .async:
            localized(
                "async: fetch awaited while the ProductCache actor pre-loads, parse on the actor, UI on the main actor; three launches"
            )
        case .noThread: localized("no-thread: fetch, pre-load and parse, all on the main thread; three launches")
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup: ShopSetup, output: ScreenOutput) -> VariantRun<ShopDetails> {
        ShopRun.perform(variant, setup: setup, output: output, cancelAfter: common.cancelAfter)
    }

    func parameters(_ setup: ShopSetup) -> [(MetricName, Metric)] {
        [
            (.products, .count(products)), (.orders, .count(orders)), (.maxAgeSeconds, .count(maxAge)),
            (.httpCache, .text("HTTPDiskCache (on disk; on Linux URLSession stores nothing in URLCache)")),
        ] + setup.endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<ShopDetails>]) -> String { ShopRun.takeaway(runs) }
}
