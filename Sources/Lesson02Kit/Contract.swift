import WorkshopCore
import WorkshopServer

/// The numbers lesson 02's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson02Flags {
    public static let items = FlagRange("--items", 1...5000)
}

extension LessonContract {
    /// What `lesson02` promises (`lesson02 --contract`; the lesson contract suite checks it).
    public static let lesson02 = LessonContract(
        number: "02", title: "A run-loop thread: fetch and push-parse a feed",
        quick: ["--items", "30", "--latency", "0.02", "--bandwidth", "20000"],
        metrics: [.firstItemSeconds, .downloadSeconds, .itemsShown, .itemsBeforeDownloadEnded],
        // With the threaded variant, by default, the same thread parsing after the download
        // and spinning two ways, for comparison.
        runs: Variant.allCases.map { Run($0.rawValue, $0) } + [
            Run("threaded-after-download", .threaded), Run("spin-no-source", .threaded),
            Run("spin-past-deadline", .threaded),
        ],
        flags: NetworkFlags.contract + [
            Lesson02Flags.items.contract, Flag(name: "--compare"), Flag(name: "--no-compare"),
        ],
        help: ["1-5000; 140 items is about 1,000 lines of XML"],
        japaneseHelp: [
            "ランループのスレッド: ニュースフィードを", "元になった記事: 「別スレッドで NSURLConnection を使うときのメモ」", "フィードのアイテム数です",
            "比較のため空回りする 2 つのループ", "実行するバリアント: no-thread", "模擬回線の帯域",
        ],
        network: Network(
            // About 50 KB of feed at 25 KB/s: two seconds, long enough to watch items arrive. 8 s,
            // not the usual 10: by default this lesson makes six runs (three variants and three
            // comparison loops), and against a silent server each of them waits the whole
            // timeout; six times 8 s keeps such a run under a minute.
            latency: 0.1, bandwidth: 25_000, timeout: 8,
            causes: [
                "500": "the server answered HTTP 500", "drop": "the connection was reset",
                // Half the document, sent as if complete: the parser finds it cut off.
                "malformed": "not well-formed XML",
                // libcurl decodes gzip itself: a corrupt stream is a transport error, and a
                // truncated one arrives as a short body, which the parser finds cut off.
                "corrupt-gzip": "corrupt gzip", "truncated-gzip": "not well-formed XML",
            ],
            japaneseCauses: ["malformed": ["XML が", "列目で壊れています"], "truncated-gzip": ["XML が", "列目で壊れています"]],
            firstPath: "/feed.xml", faultsNamePath: true),
        cancel: ["--no-compare", "--cancel-after", "0.1"],
        japanese: [
            JapaneseRun([
                "レッスン 02: ランループのスレッド", "no-thread: フィード全体をメインスレッドでダウンロードし", "threaded: ネットワークスレッド。ずっと先に発火する待機用タイマ",
                "threaded-after-download: ネットワークスレッド", "spin-no-source: ネットワークスレッド。ソースが付いていないので",
                "spin-past-deadline: ネットワークスレッド。期限がもう過ぎているので", "async: 自前のスレッドはありません", "時間の使われ方",
                "マシン: ", "指標", "ランループのスレッドでは最初のアイテムが", "ダウンロードが終わってからパースすると", "ソースのないループは",
                "async(自前のスレッドなし): 最初のアイテムは",
            ]),
            // One variant alone: the takeaway has its own sentences then.
            JapaneseRun(["--no-compare", "--variant", "threaded"], ["比べるには、既定のとおり 3 つのバリアントをすべて実行してください"]),
            JapaneseRun(["--no-compare", "--variant", "async"], ["async(自前のスレッドなし): 最初のアイテムは"]),
        ])
}
