import WorkshopCore

/// The numbers lesson 07's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson07Flags {
    public static let width = FlagRange("--width", 20...200)
    public static let rows = FlagRange("--rows", 1...100_000)
    public static let chunkSize = FlagRange("--chunk-size", 1...100_000)
    public static let tasks = FlagRange("--tasks", 1...8)
}

extension LessonContract {
    /// What `lesson07` promises (`lesson07 --contract`; the lesson contract suite checks it).
    public static let lesson07 = LessonContract(
        number: "07", title: "Layout math: sizing-cell row heights",
        quick: ["--rows", "50", "--width", "24", "--tasks", "2"],
        metrics: [.rowsMeasured, .contentHeightPoints, .cacheHits],
        flags: [
            Lesson07Flags.width.contract, Lesson07Flags.rows.contract, Lesson07Flags.chunkSize.contract,
            Lesson07Flags.tasks.contract, Flag(name: "--corners-svg"),
            Flag(name: "--step-isolation", refused: ["sideways"]),
        ],
        help: [
            "Layout math: Auto Layout's constraints solved by hand", "1-8; 1 is the threaded variant's one queue",
            "async",
        ],
        japaneseHelp: [
            "レイアウトの計算: Auto Layout の制約を自分で解き", "元になった記事", "描く画面とテーブルの幅", "高さを測る行数",
            "threaded バリアントがメインキューに結果を渡すまでに測る行数", "async バリアントのタスクグループが同時に測るチャンクの数",
            "パート 4 の角丸の輪郭を SVG のパスとしても出力します",
        ],
        // Enough rows that no variant is done at the tap (the no-thread one measures them all first).
        cancel: ["--rows", "2000", "--cancel-after", "0.01"],
        japanese: [
            JapaneseRun([
                "レッスン 07: レイアウトの計算。", "1. 幅 24 桁のウィンドウいっぱいのスクロールビューに入れた",
                "label をスクロールビューに Top・Left・Right・Bottom で固定:", "└─ スクロール → 幅 56 ─┘",
                "label のフレーム (0, 0, 22 x 3)、3 行。", "未確定: label.width(水平方向)は制約で決まりません: 1 行分の幅 56",
                "2. 同じものに label.width == 10 を加えると:", "エラー: 水平方向の制約が互いに矛盾しています:",
                "3. 記事のセルを 1 つのサイズ計算用セルで測る: 行 0〜5 の高さは 25, 30, 35, 40, 45, 50 ポイント",
                "曖昧(AMBIGUOUS): 決めるものがありません", "4. 一部の角だけを丸める(半径 2。", "レイアウト前に求めると:",
                "レイアウト後に求めると:", "5. タイムラインの投稿 50 件の行の高さ、幅 24 桁",
                "no-thread: メインスレッドで全行を測ってから", "threaded: まず見積もりの高さで描き、height-queue で 500 行ずつ",
                "async: まず見積もりの高さで描き、500 行ずつのチャンク", "コンテンツの高さ", "時間の使われ方", "指標",
                "どのバリアントでも同じ 50 行の高さになりました。", "タスクグループは、自前のキューなしで",
            ]),
            // `--corners-svg`, and one variant alone (the takeaway has its own sentences then).
            JapaneseRun(
                ["--corners-svg", "--variant", "async"],
                ["  diagonal: <path d=\"M", "50 行の高さを測りました。", "比べるには 3 つのバリアントをすべて実行してください"]),
        ])
}
