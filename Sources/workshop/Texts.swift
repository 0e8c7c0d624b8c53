import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `--lang`, accepted by every command (the value itself is read by `Language.current`; the
/// parser checks it and shows it in `--help`).
struct LanguageOption: ParsableArguments {
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            "Speak English or Japanese (default: Japanese when LANG, LC_ALL or LC_MESSAGES starts with ja).",
            valueName: "en|ja"))
    var language: Language?
}

/// Every sentence `workshop` says that differs between English and Japanese, in one table:
/// each entry gives both. Commands, paths, check names and the compiler's messages stay as
/// they are (they are what the learner types or searches for).
enum Text {
    static func pick(_ english: String, _ japanese: String) -> String {
        Language.current == .ja ? japanese : english
    }

    // MARK: Exercises and their states

    /// The exercise's title in the learner's language (from its `.meta/exercise.json`).
    static func title(_ exercise: Exercise) -> String {
        Language.current == .ja ? exercise.titleJapanese : exercise.title
    }

    static func exercise(_ exercise: Exercise) -> String {
        pick("Exercise \(exercise.id): \(title(exercise))", "演習 \(exercise.id): \(title(exercise))")
    }

    static func status(_ status: Workspace.Status) -> String {
        switch status {
        case .done: pick("done", "完了")
        case .failing: pick("failing", "失敗中")
        case .notStarted: pick("not started", "未着手")
        }
    }

    static func progress(done: Int, of total: Int) -> String {
        pick(
            "\(done) of \(total == 1 ? "1 exercise" : "\(total) exercises") done", "全 \(total) 演習中 \(done) 件完了")
    }

    static let changedSincePassed = pick("changed since it passed", "合格後に変更あり")
    static let changedSinceChecked = pick("changed since your last check", "前回のチェック後に変更あり")
    static func missing(_ files: String, _ id: String) -> String {
        pick("\(files) missing: swift run workshop reset \(id)", "\(files) がありません: swift run workshop reset \(id)")
    }

    // MARK: list

    static let listHeader = (
        id: "id", lesson: pick("lesson", "レッスン"), exercise: pick("exercise", "演習"),
        status: pick("status", "状態")
    )
    static let noExercise = pick("(no exercise)", "（演習なし）")
    static let noLesson = pick("(no lesson: belongs to all of them)", "（全レッスン共通）")
    static let currentMarker = pick(
        "> is the current exercise: `swift run workshop check` checks it.",
        "> が今の演習です: `swift run workshop check` でチェックできます。")
    static let nothingLeft = pick(
        "Next: nothing left. Every exercise passes its checks. Well done! (Try `swift test --sanitize=thread`.)",
        "次: 残りはありません。すべての演習がチェックに合格しました。お疲れさまでした！"
            + "（`swift test --sanitize=thread` もどうぞ）")
    static func nextNotStarted(_ exercise: Exercise, readme: String, files: String) -> String {
        pick(
            "Next: exercise \(exercise.id), \(title(exercise)). Read \(readme), edit \(files), "
                + "then `swift run workshop check \(exercise.id)` (or `swift run workshop watch \(exercise.id)`).",
            "次: 演習 \(exercise.id)「\(title(exercise))」。\(readme) を読んで \(files) を編集し、"
                + "`swift run workshop check \(exercise.id)`（または `swift run workshop watch \(exercise.id)`）"
                + "で確かめましょう。")
    }
    static func nextFailing(_ exercise: Exercise, files: String) -> String {
        pick(
            "Next: keep going with exercise \(exercise.id) (\(files)): `swift run workshop check \(exercise.id)`; "
                + "stuck? `swift run workshop hint \(exercise.id)`.",
            "次: 演習 \(exercise.id) の続き（\(files)）: `swift run workshop check \(exercise.id)`。"
                + "詰まったら `swift run workshop hint \(exercise.id)`。")
    }
    static func nextAfterDone(_ done: Exercise, _ following: Exercise) -> String {
        pick(
            "Exercise \(done.id) is done. Next: exercise \(following.id), \(title(following)): "
                + "`swift run workshop next` (or `swift run workshop start \(following.id)`).",
            "演習 \(done.id) は完了です。次は演習 \(following.id)「\(title(following))」: "
                + "`swift run workshop next`（または `swift run workshop start \(following.id)`）。")
    }

    // MARK: start and next

    static func startRead(_ readme: String, _ files: String) -> String {
        pick("Read \(readme), change \(files),", "\(readme) を読んで、\(files) を書き換え、")
    }
    static let startThen = pick(
        "then `swift run workshop check` (or `swift run workshop watch`). Stuck? `swift run workshop hint`.",
        "`swift run workshop check`（または `swift run workshop watch`）で確かめましょう。"
            + "詰まったら `swift run workshop hint`。")
    static func nowCurrent(_ exercise: Exercise) -> String {
        pick("Exercise \(exercise.id) is now the current exercise.", "演習 \(exercise.id) を今の演習にしました。")
    }

    // MARK: check

    static let wanted = pick("wanted:", "期待:")
    static let got = pick("got:", "結果:")
    static func hintHelps(_ hint: Int, _ id: String) -> String {
        pick(
            "hint \(hint) helps here: swift run workshop hint \(id) \(hint)",
            "ヒント \(hint) が役に立ちます: swift run workshop hint \(id) \(hint)")
    }
    static func timings(compiled: Double?, ran: Double?) -> String {
        let compile =
            compiled.map { pick(String(format: "compiled in %.1f s", $0), String(format: "コンパイル %.1f 秒", $0)) }
            ?? pick("built before, not compiled again", "前回のビルドを再利用")
        guard let ran else { return "(\(compile))" }
        return pick(
            String(format: "(\(compile); the checks ran in %.1f s)", ran),
            String(format: "（\(compile)、チェック実行 %.1f 秒）", ran))
    }
    static func allPass(_ count: Int) -> String {
        pick(count == 1 ? "The 1 check passes." : "All \(count) checks pass.", "\(count) 件のチェックすべてに合格しました。")
    }
    /// After a check the program did not get to (it crashed or hung first).
    static let notRun = pick("(not run: the program stopped before it)", "（未実行: その前にプログラムが止まりました）")
    static let readTheFirstFail = pick(
        "Read the first FAIL above, change your file, check again.",
        "上の最初の FAIL を読んで、ファイルを直し、もう一度チェックしましょう。")
    /// The unmistakable last line of a check.
    static func verdict(_ id: String, failed: Int, of total: Int, notRun: Int = 0) -> String {
        if failed == 0 && notRun == 0 { return pick("exercise \(id) passed", "演習 \(id) 合格") }
        return pick(
            "exercise \(id): \(failed) of \(total) \(total == 1 ? "check" : "checks") \(failed == 1 ? "fails" : "fail")"
                + (notRun > 0 ? ", \(notRun) not run" : ""),
            "演習 \(id): \(total) 件中 \(failed) 件のチェックが失敗" + (notRun > 0 ? "、\(notRun) 件は未実行" : ""))
    }
    // MARK: check --svg

    static func noTimeline(_ id: String) -> String {
        pick(
            "exercise \(id)'s checks record no timeline to draw: --svg and --html work with the exercises whose checks do (e.g. the first GCD one)",
            "演習 \(id) のチェックはタイムラインを記録しないので、--svg と --html は使えません(記録する演習で使えます)")
    }
    static func pictureTitle(_ exercise: Exercise) -> String {
        pick("Exercise \(exercise.id): your run and the reference's", "演習 \(exercise.id): あなたの実行と模範解答の実行")
    }
    static let pictureSubtitle = pick(
        "each lane is where the work ran; shaded: the main thread frozen",
        "レーンは処理が走った場所、網掛けはメインスレッドが固まっていた時間")
    static let pictureYours = pick("your code", "あなたのコード")
    static let pictureReference = pick("reference", "模範解答")
    static let pictureAllPass = pick("every check passes", "すべてのチェックに合格")
    static func pictureFailing(_ failed: Int, of total: Int) -> String {
        pick(
            "\(failed) of \(total) \(total == 1 ? "check" : "checks") \(failed == 1 ? "fails" : "fail")",
            "\(total) 件中 \(failed) 件が失敗")
    }
    static func pictureWritten(_ path: String) -> String { pick("Picture written to \(path)", "図を \(path) に書き出しました") }

    static let buildingLibrary = pick("Building the checks' library first:", "まずチェック用ライブラリをビルドします:")

    // MARK: verify

    static func busyStarted(_ count: Int) -> String {
        pick(
            "Keeping \(count == 1 ? "1 core" : "\(count) cores") busy meanwhile (\(count == 1 ? "a process" : "processes") "
                + "like `yes > /dev/null`, stopped at the end or on Ctrl-C).",
            "その間 \(count) コアをふさぎます（`yes > /dev/null` のようなプロセス。終了時や Ctrl-C で止めます）。")
    }
    static func round(_ round: Int, of total: Int, jobs: Int) -> String {
        pick(
            "Round \(round) of \(total): every copy as shipped and every reference, \(jobs) at a time...",
            "\(total) 回中 \(round) 回目: 配布時のコピーと模範解答をすべて、\(jobs) 個ずつ並行して...")
    }
    static func verifyPassed(_ ids: [String], repeats: Int) -> String {
        let what =
            ids.count == 1
            ? pick(
                "verify: exercise \(ids[0]) ships unsolved and its reference passes",
                "verify: 演習 \(ids[0]) は未解答で配布され、模範解答は合格します")
            : pick(
                "verify: all \(ids.count) exercises ship unsolved and their references pass",
                "verify: \(ids.count) 件の演習すべてが未解答で配布され、模範解答はすべて合格します")
        guard repeats > 1 else { return what }
        return what + pick(", in each of \(repeats) rounds", "（\(repeats) 回とも）")
    }
    /// "verify: not right: R1 (1 of 1 exercise; " + figures + ")."
    static func verifyFailed(_ bad: [String], of total: Int, figures: String) -> String {
        pick(
            "verify: not right: \(bad.joined(separator: ", ")) "
                + "(\(bad.count) of \(total == 1 ? "1 exercise" : "\(total) exercises"); \(figures)).",
            "verify: 問題あり: \(bad.joined(separator: ", "))（\(total) 件中 \(bad.count) 件、\(figures)）。")
    }
    /// "41 s; 2 at a time; rounds 19, 9, 9 s; 2 busy cores; slowest reference run: 03a, 1.2 s".
    static func verifyFigures(
        seconds: Double, rounds: [Double], jobs: Int, busy: Int, slowestReference: (String, Double)?
    ) -> String {
        var parts = [String(format: "%.0f s", seconds)]
        parts.append(pick("\(jobs) at a time", "並行 \(jobs)"))
        if rounds.count > 1 {
            let each = rounds.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            parts.append(pick("rounds \(each) s", "各回 \(each) 秒"))
        }
        if busy > 0 { parts.append(pick(busy == 1 ? "1 busy core" : "\(busy) busy cores", "ビジーなコア \(busy) 個")) }
        if let (id, slowest) = slowestReference, slowest > 0 {
            parts.append(
                pick(
                    String(format: "slowest reference run: %@, %.1f s", id, slowest),
                    String(format: "一番遅い模範解答のチェック: %@、%.1f 秒", id, slowest)))
        }
        return parts.joined(separator: pick("; ", "、"))
    }

    // MARK: hint

    static func hintsHeader(_ exercise: Exercise, shown: Int, of total: Int) -> String {
        pick(
            "Hints for exercise \(exercise.id): \(title(exercise))",
            "演習 \(exercise.id) のヒント: \(title(exercise))")
            + "  " + pick("(\(shown) of \(total))", "(\(total) 件中 \(shown) 件)")
    }
    static func askAgain(_ next: Int, _ id: String) -> String {
        pick(
            "Ask again for hint \(next): swift run workshop hint \(id)",
            "ヒント \(next) はもう一度: swift run workshop hint \(id)")
    }
    static func lastHint(_ readme: String) -> String {
        pick(
            "That was the last hint. \(readme) says what each check wants.",
            "これが最後のヒントです。各チェックが何を求めているかは \(readme) にあります。")
    }
    static func noSuchHint(_ number: Int, _ id: String, count: Int) -> String {
        pick(
            "exercise \(id) has \(count == 1 ? "1 hint" : "\(count) hints"): ask for 1 to \(count) (got \(number))",
            "演習 \(id) のヒントは \(count) 件です: 1 から \(count) で指定してください（指定: \(number)）")
    }
    static func noHints(_ file: String) -> String {
        pick("no numbered hints in \(file)", "\(file) に番号付きのヒントがありません")
    }

    // MARK: reset

    static func resetQuestion(_ names: String) -> String {
        pick(
            "Reset \(names) to the shipped version? Your version is kept as a backup. [y/N] ",
            "\(names) を配布時の状態に戻しますか？ 今のファイルはバックアップに残します。 [y/N] ")
    }
    static let nothingChanged = pick("Nothing changed.", "何も変更していません。")
    static func alreadyShipped(_ names: String) -> String {
        pick("\(names) already as shipped. Nothing to do.", "\(names) はすでに配布時のままです。何もしません。")
    }
    static func restoredHeader(_ count: Int) -> String {
        pick(
            "Restored \(count == 1 ? "1 file" : "\(count) files") as shipped; hints start over:",
            "\(count) 個のファイルを配布時の状態に戻しました。ヒントも最初からです:")
    }
    static let hintsStartOver = pick("Hints start over.", "ヒントは最初からにしました。")
    static func yourVersion(_ backup: String) -> String { pick("your version: \(backup)", "あなたの版: \(backup)") }
    static let wasMissing = pick("(it was missing)", "（ファイルがありませんでした）")
    static func resetNeedsYes(_ command: String) -> String {
        pick(
            "reset needs a yes and there is no terminal to ask: run `\(command) --yes`",
            "reset には確認が必要ですが、尋ねる端末がありません: `\(command) --yes` を実行してください")
    }
    static func isYes(_ answer: String) -> Bool { ["y", "yes", "はい"].contains(answer) }

    // MARK: solution

    static func solutionHidden(_ exercise: Exercise, failed: Int, of total: Int) -> String {
        pick(
            "Exercise \(exercise.id) does not pass its checks yet (\(failed) of \(total) fail), "
                + "so its reference solution stays hidden. Get there first:",
            "演習 \(exercise.id) はまだチェックに合格していません（\(total) 件中 \(failed) 件が失敗）。"
                + "模範解答は合格してから表示します。まずはここから:")
    }
    static func solutionWay(_ id: String) -> [String] {
        [
            pick(
                "  swift run workshop hint \(id)     one more hint each time you ask",
                "  swift run workshop hint \(id)     聞くたびにヒントを 1 つずつ表示"),
            pick(
                "  swift run workshop check \(id)    what each check wants, and what it got",
                "  swift run workshop check \(id)    各チェックが求めるものと実際の結果"),
        ]
    }
    static func solutionHeader(_ exercise: Exercise) -> String {
        pick(
            "Exercise \(exercise.id): \(title(exercise)), the reference solution",
            "演習 \(exercise.id): \(title(exercise)) の模範解答")
    }
    static let oneWay = pick(
        "One way to pass every check; yours passes too, and may well differ.",
        "すべてのチェックに合格する一つの書き方です。あなたの解答も合格しています。違っていて構いません。")
    static let yoursAgainstReference = pick(
        "Your file against the reference (- yours, + reference):", "あなたのファイルと模範解答の差分（- あなた、+ 模範解答）:")
    static let sameAsReference = pick(
        "Your file is the reference, byte for byte.", "あなたのファイルは模範解答と完全に同じです。")

    // MARK: editor

    static let noEditor = pick(
        "no editor to open: set EDITOR (e.g. `export EDITOR=vim`) or pass --edit-cmd \"code -g\"",
        "開くエディタがありません: EDITOR を設定する（例 `export EDITOR=vim`）か --edit-cmd \"code -g\" を付けてください")
    static func editorFailed(_ command: String, _ end: String) -> String {
        pick("the editor `\(command)` did not run: \(end)", "エディタ `\(command)` を起動できませんでした: \(end)")
    }
    static func opening(_ location: String, _ command: String) -> String {
        pick("Opening \(location) with \(command)...", "\(location) を \(command) で開きます...")
    }

    // MARK: progress

    static func progressUnreadable(_ name: String, keptAs aside: String?) -> String {
        pick(
            "workshop: \(name) could not be read" + (aside.map { " (the old one is kept as \($0))" } ?? "")
                + "; rebuilding it from the checks of your files.",
            "workshop: \(name) を読めませんでした" + (aside.map { "（元のファイルは \($0) に残しました）" } ?? "")
                + "。あなたのファイルのチェックから作り直します。")
    }
    static func rebuilt(_ id: String, passed: Bool) -> String {
        pick(
            "workshop: exercise \(id) checked again: \(passed ? "passes" : "fails")",
            "workshop: 演習 \(id) を再チェック: \(passed ? "合格" : "失敗")")
    }
}

/// What `docs` says, in English and Japanese.
extension Text {
    static let doccMissing = pick(
        "docc was not found. It ships with the Swift toolchain (usr/bin/docc beside swift, Swift 5.6 or later): install the toolchain from swift.org, or point DOCC=/path/to/docc at one.",
        "docc が見つかりません。docc は Swift ツールチェーン (Swift 5.6 以降、swift と同じ usr/bin) に含まれています。swift.org からツールチェーンを入れるか、DOCC=/path/to/docc で指定してください。"
    )

    static func docsFailed(_ language: String, _ reason: String) -> String {
        pick(
            "the \(language) tutorials could not be built: \(reason)",
            "\(language) のチュートリアルをビルドできませんでした: \(reason)")
    }

    static func docsBuilt(_ language: String, _ path: String) -> String {
        pick("\(language): \(path)", "\(language): \(path)")
    }

    static func docsDone(_ seconds: String) -> String {
        pick(
            "Built in \(seconds) s. To serve them to the room, run this and open the addresses below:",
            "\(seconds) 秒でビルドしました。会場に配信するには、次のコマンドを実行して下のアドレスを開いてください:")
    }
}
