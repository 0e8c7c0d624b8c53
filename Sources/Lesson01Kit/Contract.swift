import WorkshopCore
import WorkshopServer

/// The numbers lesson 01's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson01Flags {
    public static let items = FlagRange("--items", 1...100)
    public static let width = FlagRange("--width", 1...16)
    public static let slowLatency = FlagRange("--slow-latency", 0...30.0, seconds: true)
}

extension LessonContract {
    /// What `lesson01` promises (`lesson01 --contract`; the lesson contract suite checks it).
    public static let lesson01 = LessonContract(
        number: "01", title: "Operation queues: login, user, items, one cancelled",
        quick: ["--items", "3", "--slow-latency", "0.3", "--latency", "0.02"],
        metrics: [.maxConcurrentOperationsSeen, .completionOrder, .cancelledItemDelivered, .requestsServed],
        flags: NetworkFlags.contract + [
            Lesson01Flags.items.contract, Lesson01Flags.width.contract, Lesson01Flags.slowLatency.contract,
            Flag(name: "--cancel"), Flag(name: "--no-cancel"), Flag(name: "--show-hang"),
        ],
        help: ["Items to fetch after logging in (1-100).", "async let"],
        japaneseHelp: [
            "オペレーションキュー: ログインしてユーザを取得し", "元になった記事: 「NSOperation を使って外部 API から非同期に結果を取得してみる」",
            "ログインのあとに取得するアイテムの数です(1〜100)", "実行するバリアント: no-thread", "フィクスチャサーバが各レスポンスを返す前に待つ秒数です(0〜60、既定 0.15)",
        ],
        // Every fault hits the login first; nothing that needs its token is sent after it.
        network: Network(
            latency: 0.15, bandwidth: 50_000,
            causes: [
                "500": "the server answered HTTP 500", "drop": "the connection was reset",
                "malformed": "is not what we expected",
                // libcurl decodes gzip itself: a corrupt stream is a transport error, and a
                // truncated one arrives as a short body, which is not the whole JSON.
                "corrupt-gzip": "corrupt gzip", "truncated-gzip": "is not what we expected",
            ], firstPath: "/api/login", faultsNamePath: true),
        cancel: ["--cancel-after", "0.05"],
        // The items go `width` at a time: that many may be on their way at the tap.
        cancelAllowance: AccountRun.Settings().width,
        japanese: [
            JapaneseRun([
                "レッスン 01: オペレーションキュー", "アイテム 1 はさらに 0.3 秒かかり", "no-thread: すべてのリクエストをメインスレッドから送り",
                "threaded: FetchOperation と ParseOperation", "async: ログインを await し", "時間の使われ方", "マシン: ", "指標",
                "キューは最大 2 個のリクエストを同時に走らせ", "Operation も自前のスレッドもなしで",
            ]),
            JapaneseRun(["--show-hang"], ["を呼ばない非同期オペレーション", "isFinished = true", "違いはそれだけです"]),
            // One variant alone: the takeaway has its own sentences then.
            JapaneseRun(["--variant", "threaded"], ["比べるには、既定のとおり 3 つのバリアントをすべて実行してください"]),
            JapaneseRun(["--variant", "async"], ["async: 同時に最大 2 リクエスト"]),
        ],
        // The completionOrder row's value is the rows' labels in the order they were shown
        // ("login user welcome i2 i1 i3"): identifiers, the same in every language.
        quoted: ["completionOrder "])
}
