import WorkshopCore
import WorkshopServer

extension LessonContract {
    /// What `lesson04` promises (`lesson04 --contract`; the lesson contract suite checks it).
    public static let lesson04 = LessonContract(
        number: "04", title: "gzip on the wire",
        quick: ["--latency", "0.02", "--bandwidth", "0"],
        // With --json, the article's table per API and encoding too.
        metrics: [.identityWireBytes, .gzipWireBytes, .decodedBodyBytes, .gzipWireRatio, .recordsParsed]
            + XMLAPIs.all.flatMap { api in Encoding.allCases.flatMap { GzipRun.perAPINames(api, $0) } },
        flags: NetworkFlags.contract,
        help: ["Swift 6"],
        japaneseHelp: [
            "通信路の gzip: 3 つの XML API を圧縮なしと圧縮ありで取得し", "元になった記事: 「iPhone の NSURLRequest で gzip 使ってみた」",
            "どのバリアントも 3 つの XML API を遅い回線で 2 回取得します", "実行するバリアント: no-thread", "キャンセルをタップします",
        ],
        // The server sends corrupt or truncated gzip even to a request for identity, so every
        // fault reaches this lesson's requests.
        network: Network(
            // A slow link, so that 80 KB of XML takes seconds (a 2010 3G phone saw tens of KB/s).
            latency: 0.2, bandwidth: 16_000,
            causes: ["corrupt-gzip": "unencoding", "truncated-gzip": "malformed", "malformed": "malformed at line"],
            // A broken answer is explained in Japanese: the variant, the API, the line and why.
            japaneseCauses: ["malformed": ["の XML が", "行目で壊れています", "閉じないまま文書が終わっています"]],
            // A round's three requests go at once: in one run one meets the fault first, in
            // another run another.
            firstPath: "/xml/", oneCause: false),
        // A slower link, so the tap comes mid-round.
        cancel: ["--latency", "0.05", "--bandwidth", "40000", "--cancel-after", "0.1"],
        // A round's three requests go together: all may be on their way at the tap.
        cancelAllowance: XMLAPIs.all.count,
        japanese: [
            JapaneseRun([
                "レッスン 04: 通信路の gzip", "帯域は接続ごとです", "時刻はラウンドの開始からの秒数です", "no-thread: メインスレッドで API を 1 つずつ",
                "threaded: 3 つを同時に始め", "async: ラウンドごとに 3 つの子タスク", "圧縮なし(Accept-Encoding: identity)",
                "gzip あり(Accept-Encoding: gzip)", "時間の使われ方", "マシン: ", "指標", "gzip では通信路のバイトが",
                "スレッドでバイトが減ったわけではなく", "自前のスレッドなしで",
            ]),
            // One variant alone: the takeaway has its own sentences then.
            JapaneseRun(["--variant", "threaded"], ["3 つの API のパースがすべて終わったのは、圧縮なしの"]),
            JapaneseRun(["--variant", "async"], ["自前のスレッドはありません"]),
        ])
}
