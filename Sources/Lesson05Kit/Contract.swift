import WorkshopCore
import WorkshopServer

/// The numbers lesson 05's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson05Flags {
    public static let products = FlagRange("--products", 100...200_000)
    public static let orders = FlagRange("--orders", 1...50_000)
    public static let maxAge = FlagRange("--max-age", 0...3_600, seconds: true)
}

extension LessonContract {
    /// What `lesson05` promises (`lesson05 --contract`; the lesson contract suite checks it).
    public static let lesson05 = LessonContract(
        number: "05", title: "Caching: pre-loaded rows and HTTP revalidation",
        quick: ["--orders", "200", "--products", "300", "--latency", "0.02"],
        metrics: [
            .preloadSeconds, .naiveParseSeconds, .cachedParseSeconds, .firstLaunchWireBytes, .naiveQueries,
            .cachedQueries, .firstLaunchRequests, .secondLaunchRequests, .nextDayLaunchSource,
            .fullDownloadsAfterFirstLaunch,
        ],
        flags: NetworkFlags.contract + [
            Lesson05Flags.products.contract, Lesson05Flags.orders.contract, Lesson05Flags.maxAge.contract,
        ],
        help: ["Caching: pre-load the local database", "0-3600; 0 sends none", "Swift 6"],
        japaneseHelp: [
            "キャッシュ: ローカルのデータベースを一度だけ辞書に先読みし", "元になった記事", "ローカルのデータベースに入れる商品の数",
            "API が返す注文の数", "プロセス内のサーバが送る Cache-Control の max-age",
        ],
        // The server sends corrupt or truncated gzip whatever the request accepts, and
        // URLSession inflates it, so every fault reaches this lesson's one request.
        network: Network(
            latency: 0.2, bandwidth: 100_000,
            causes: [
                "corrupt-gzip": "unencoding", "truncated-gzip": "not the JSON we expected",
                "malformed": "not the JSON we expected",
            ], firstPath: "/orders"),
        cancel: ["--cancel-after", "0.01"],
        japanese: [
            JapaneseRun([
                "レッスン 05: キャッシュ。注文 200 件", "SQLite に入れた商品 300 個", "HTTP キャッシュ: ディスク上の小さなキャッシュ",
                "no-thread: 取得も先読みもパースも", "threaded: database-queue で先読みする間に",
                "async: ProductCache アクターが先読みする間に", "最初の起動: 注文の取得元はダウンロード(200)",
                "2 回目の起動: 注文の取得元はキャッシュ(期限内、リクエストなし)", "翌日の起動: 注文の取得元はキャッシュ(再検証、304)", "時間の使われ方", "指標",
                "商品 300 個の先読みは", "再起動で送ったリクエストは 0 件と 1 件だけで", "最大フリーズは",
                "データベース用のキューの代わりにアクター", "状態: 注文: ダウンロード(200)", "状態: 注文 200 件、合計 ¥",
            ])
        ])
}
