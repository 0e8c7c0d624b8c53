import WorkshopCore

/// The numbers lesson 06's own flags take (the program's `--help` and `validate()` use them).
public enum Lesson06Flags {
    public static let rows = FlagRange("--rows", 1...1_000_000)
    public static let batchRows = FlagRange("--batch-rows", 1...1_000_000)
    /// At least one row's values: a statement binds whole rows.
    public static let variableLimit = FlagRange("--variable-limit", ArticleSchema.columns.count...)
    public static let commitLatency = FlagRange("--commit-latency", 0...1.0, seconds: true)
}

extension LessonContract {
    /// What `lesson06` promises (`lesson06 --contract`; the lesson contract suite checks it).
    public static let lesson06 = LessonContract(
        number: "06", title: "SQLite upsert: batches on a writer queue",
        quick: ["--rows", "500"],
        metrics: [
            .perRowCommitRowsPerSecond, .oneTransactionRowsPerSecond, .multiRowBatchesRowsPerSecond,
            .updateThenInsertRowsPerSecond, .countReadsOnMain, .tornCountReads,
        ],
        flags: [
            Lesson06Flags.rows.contract, Flag(name: "--full"), Lesson06Flags.batchRows.contract,
            Lesson06Flags.variableLimit.contract, Lesson06Flags.commitLatency.contract,
        ],
        help: [
            "SQLite upsert: the article's sqlite3 session replayed", "3 or more; one row's values", "The async variant",
        ],
        japaneseHelp: [
            "SQLite のアップサート: 記事の sqlite3 のセッションを再現し", "元になった記事", "一括保存でアップサートする行数",
            "「1 行ごとにコミット」も全行で実行します", "複数行のバッチで 1 トランザクションに入れる行数",
            "1 ステートメントにバインドできる値の上限を下げます", "遅い端末のストレージを再現します",
        ],
        cancel: ["--rows", "5000", "--cancel-after", "0.05"],
        japanese: [
            JapaneseRun([
                "レッスン 06: SQLite のアップサート", "== 1. 記事のセッションを実際のファイルで再現", "-- 3. 既にあるキー: ステートメント全体が失敗し",
                "== 2. 行 100 への同じ変更を 2 通りで行う", "  返信 2 件 -> 0 件(ON DELETE CASCADE で削除された)",
                "読み手が覚えていた rowid で見つかる行: なし", "== 3. 500 の制限、当時といま", "compound SELECT の上限は 500 項",
                "成功(SQLite 3.8.8 から VALUES はこの制限の対象外)", "== 4. 500 行(10 行に 1 行は既存)を 4 通りで保存する",
                "1 行ごとにコミット: 500 行まで", "データベースのファイルは", "no-thread: どの戦略もメインスレッドで実行します",
                "threaded: どの戦略も writer-queue で実行します", "async: どの戦略も書き込み担当のアクターで実行し",
                "プレースホルダ: 500 行を 4 通りで保存しています...", "複数行のバッチ: 500 行を", "時間の使われ方", "指標",
                "保存を速くしたのはバッチ化です", "Screen の最大フリーズ: no-thread", "書き込み担当のアクターは、専用のキュー(QueueExecutor)の上で",
            ]),
            // `--full`, and one variant alone (the takeaway has its own sentences then).
            JapaneseRun(
                ["--rows", "100", "--full", "--variant", "threaded"],
                ["1 行ごとにコミット: 100 行。", "比べるには 3 つのバリアントをすべて実行してください"]),
        ],
        // What sqlite3 prints stays as sqlite3 prints it: the statements typed at `sqlite>`
        // and SQLite's own messages ("Error: too many SQL variables").
        quoted: ["sqlite> ", "Error: "])
}
