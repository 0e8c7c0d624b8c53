import Foundation

/// What `workshop present` says, in English and Japanese. The steps' titles and points come
/// from the lesson texts (Lessons/ja for Japanese); the lessons' own output stays English.
extension Text {
    static func presentStep(_ step: Int, of count: Int) -> String {
        pick("step \(step) of \(count)", "ステップ \(step) / \(count)")
    }
    static let presentKeysBeforeRun = pick(
        "Enter, Space or →: run it   b or ←: back   q: quit",
        "Enter・スペース・→: 実行   b・←: 戻る   q: 終了")
    static let presentKeysAfterRun = pick(
        "Enter, Space or →: next step   r: run again   b or ←: back   q: quit",
        "Enter・スペース・→: 次のステップ   r: もう一度実行   b・←: 戻る   q: 終了")
    static let presentKeysSkipped = pick(
        "Enter, Space or →: next step   b or ←: back   q: quit",
        "Enter・スペース・→: 次のステップ   b・←: 戻る   q: 終了")
    static let presentKeysAtEnd = pick(
        "Enter, Space, → or q: end   b or ←: back", "Enter・スペース・→・q: 終了   b・←: 戻る")
    static let presentKeysDuringRun = pick(
        "Running: q or Ctrl-C stops it (the presenter stays on this step).",
        "実行中です: q か Ctrl-C で止めます(このステップにとどまります)。")
    static let presentNeedsServer = pick(
        "Skipped here: this demo needs a room server (`swift run fixture-server` in a second terminal). "
            + "To show it, run both commands by hand.",
        "ここでは実行しません: このデモには会場のサーバ(2 つ目のターミナルで `swift run fixture-server`)が必要です。"
            + "見せるときは両方のコマンドを手で実行してください。")
    static let presentTakeaway = pick("Takeaway", "まとめ")
    static let presentStopped = pick(
        "Stopped the run. Still on this step: r runs it again.",
        "実行を止めました。このステップのままです。r でもう一度実行します。")
    static func presentEnded(_ how: String) -> String {
        pick("The lesson program ended with \(how).", "レッスンのプログラムが異常終了しました(\(how))。")
    }
    static let presentFirstStep = pick("This is the first step.", "最初のステップです。")
    static func presentTheEnd(_ lesson: String) -> String {
        pick("That was the last demo of lesson \(lesson).", "レッスン \(lesson) のデモはこれで全部です。")
    }
    static func presentExtra(_ extra: String) -> String {
        pick("(every run adds: \(extra))", "(どの実行にも追加: \(extra))")
    }
    static func presentBuilding(_ command: String) -> String {
        pick("Building the lesson first: \(command)", "まずレッスンをビルドします: \(command)")
    }
    static func presentNoLesson(_ asked: String, _ numbers: String) -> String {
        pick(
            "there is no lesson \"\(asked)\". The lessons are \(numbers).",
            "レッスン \"\(asked)\" はありません。レッスンは \(numbers) です。")
    }
    static func presentNoDemos(_ file: String, _ product: String) -> String {
        pick(
            "\(file) quotes no `swift run \(product)` line in a code block: no demo to present",
            "\(file) のコードブロックに `swift run \(product)` の行がないため、見せるデモがありません")
    }
    static func presentBadStep(_ step: Int, _ count: Int) -> String {
        pick(
            "--step must be between 1 and \(count) (got \(step))",
            "--step は 1 から \(count) の間で指定してください(指定: \(step))")
    }
    static func presentNotBuilt(_ product: String) -> String {
        pick(
            "\(product) is not built and could not be built: run `swift build` and try again",
            "\(product) がビルドされておらず、ビルドもできませんでした: `swift build` を実行してからもう一度どうぞ")
    }
}
