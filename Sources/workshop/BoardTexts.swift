import Foundation

/// What `join`, `leave` and `check` say about the room's board, in English and Japanese.
extension Text {
    static func boardJoined(_ url: String, _ name: String) -> String {
        pick(
            "Joined the board at \(url) as \(name). From now on every check sends the exercise, pass or fail, the failing check's name, the time spent and the worst freeze (never your code). `swift run workshop leave` stops it.",
            "\(url) のボードに \(name) として参加しました。これからは check のたびに、演習、合否、失敗したチェック名、取り組み時間、最大フリーズ時間を送ります(コードは送りません)。やめるときは `swift run workshop leave` を実行してください。"
        )
    }

    static func boardJoinRefused(_ reason: String) -> String {
        pick("the board did not let you join: \(reason)", "ボードへの参加が拒否されました: \(reason)")
    }

    static func boardJoinUnreachable(_ url: String, _ reason: String) -> String {
        pick(
            "could not reach the board at \(url) (\(reason)). Is `fixture-server --board` running there, with --host for the room, and is the address right?",
            "\(url) のボードに接続できませんでした(\(reason))。講師のマシンで `fixture-server --board` が --host 付きで動いているか、アドレスが正しいか確認してください。"
        )
    }

    static let boardNotJoined = pick(
        "You have not joined a board; nothing to leave.", "ボードには参加していません。")

    static func boardLeft(_ url: String, unsent: Int) -> String {
        let dropped =
            unsent == 0
            ? "" : pick(" (\(unsent) unsent report\(unsent == 1 ? "" : "s") dropped)", "(未送信の \(unsent) 件は破棄しました)")
        return pick(
            "Left the board at \(url)\(dropped). Checks no longer report anything.",
            "\(url) のボードから抜けました\(dropped)。check の結果はもう送りません。")
    }

    /// The line `list` ends with while the learner is on a board.
    static func boardMember(_ url: String, _ name: String, waiting: Int) -> String {
        let late = waiting == 0 ? "" : pick(", \(waiting) waiting to be sent", "、未送信 \(waiting) 件")
        return pick(
            "Reporting your checks to the board at \(url) as \(name)\(late) (`swift run workshop leave` stops it).",
            "\(url) のボードに \(name) として check の結果を送っています\(late)(やめるときは `swift run workshop leave`)。")
    }

    static let boardNothingWaits = pick(
        "Nothing waits for the board: every check has been sent.", "未送信の結果はありません。すべて送信済みです。")

    static let boardSent = pick("(sent to the room's board)", "(ボードに送信しました)")

    static func boardUnreachable(_ reason: String) -> String {
        pick(
            "(the room's board did not take it: \(reason); it goes with your next check, or now with `swift run workshop send`)",
            "(ボードに送れませんでした: \(reason)。次の check で送ります。今すぐ送るなら `swift run workshop send`)")
    }

    static func boardRefused(_ reason: String) -> String {
        pick(
            "workshop: the room's board refused the report: \(reason) (`swift run workshop join` again to fix it)",
            "workshop: ボードが結果を受け付けませんでした: \(reason)(`swift run workshop join` でやり直してください)")
    }

    static func boardNoAnswer(_ seconds: Double) -> String {
        pick("no answer within \(seconds) s", "\(seconds) 秒以内に応答なし")
    }
}
