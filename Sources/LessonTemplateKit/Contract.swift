import WorkshopCore
import WorkshopServer

/// The numbers the lesson's own flags take (the program's `--help` and `validate()` use them).
public enum LessonTemplateFlags {
    public static let rows = FlagRange("--rows", 1...200)
}

extension LessonContract {
    /// What `lessonTemplate` promises (`lessonTemplate --contract`; the lesson contract suite
    /// checks it): its flags, its figures, what its help says, its Japanese.
    public static let lessonTemplate = LessonContract(
        number: "Template", title: "the title of the lesson",
        quick: ["--rows", "4", "--latency", "0.02"],
        metrics: [.lessonTemplateRowsShown],
        flags: NetworkFlags.contract + [LessonTemplateFlags.rows.contract],
        help: ["Rows to show (1-200)."],
        japaneseHelp: ["表示する行数(1〜200)"],
        network: Network(
            latency: 0.15, bandwidth: 50_000,
            causes: [
                "corrupt-gzip": "unencoding", "truncated-gzip": "not what we expected",
                "malformed": "not what we expected",
            ],
            firstPath: "/timeline", faultsNamePath: true),
        // A slow answer, so that the tap comes while the request is out.
        cancel: ["--latency", "0.5", "--cancel-after", "0.1"],
        japanese: [JapaneseRun(["レッスン Template: ", "時間の使われ方", "マシン: ", "指標"])])
}
