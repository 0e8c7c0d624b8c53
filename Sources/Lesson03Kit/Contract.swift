import WorkshopCore
import WorkshopServer

/// The numbers lesson 03's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson03Flags {
    public static let rows = FlagRange("--rows", 1...500)
    public static let imageWidth = FlagRange("--image-width", 1...16)
    public static let visibleRows = FlagRange("--visible-rows", 1...500)
}

extension LessonContract {
    /// What `lesson03` promises (`lesson03 --contract`; the lesson contract suite checks it).
    public static let lesson03 = LessonContract(
        number: "03", title: "GCD queues: timeline and icons",
        quick: ["--rows", "4", "--latency", "0.02"],
        metrics: [.requestsServed, .iconRequests, .iconCacheHits],
        flags: NetworkFlags.contract + [
            Lesson03Flags.rows.contract, Lesson03Flags.imageWidth.contract, Lesson03Flags.visibleRows.contract,
            Flag(name: "--scroll", refused: ["sideways 3", "down 8, up"]), Flag(name: "--no-cache"),
        ],
        help: ["Timeline entries to fetch (1-500).", "The async variant"],
        japaneseHelp: [
            "GCD のキュー: 公開タイムラインとアイコン", "no-thread はタイムラインもアイコンもすべてメインスレッドで取得する",
            "取得するタイムラインの投稿数(1〜500)", "取得したアイコンを残しません", "実行するバリアント",
        ],
        // The timeline request meets every fault first, so every variant fails with its cause.
        network: Network(
            latency: 0.15, bandwidth: 50_000,
            causes: ["corrupt-gzip": "unencoding", "truncated-gzip": "not what we expected", "malformed": "malformed"],
            firstPath: "/timeline", faultsNamePath: true),
        cancel: ["--cancel-after", "0.05"],
        japanese: [
            JapaneseRun([
                "レッスン 03: GCD のキュー", "時間の使われ方", "マシン: ", "指標", "メインスレッドが空いたままになった", "キャッシュでリクエストが",
                // The Screen speaks the app user's language too (its plain lines in a pipe).
                "再読み込み: 4 行", "プレースホルダ: 読み込み中...", "アイコン: 1 行目",
            ])
        ])
}
