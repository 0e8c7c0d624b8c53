import WorkshopCore

/// Exercise 07: Japanese line-break rules (禁則処理, kinsoku shori) for a label that
/// wraps by character, like swift-layout's `createCharWrappingLabel`.
///
/// Japanese has no spaces between words, so a label breaks after whichever character fills
/// the line. But a line must never *start* with a closing mark: 、。」 and the others in
/// `cannotStartLine`. A reader sees "、" at the start of a line as a mistake.
///
/// As shipped, `wrap` fills each line and ignores the rule. Make it keep the rule by
/// pushing characters down (追い出し, "push out"): when the character that would start the
/// next line is in `cannotStartLine`, move the last character of the current line down with
/// it, and keep moving while the new first character is still one of them. Every line must
/// stay within `width` cells (a wide character takes two, see `terminalWidth`), and no
/// character may be lost or reordered.
///
/// Check your work:  swift test --filter Exercise07
public enum LineBreaker {
    /// Closing punctuation and brackets: never at the start of a line.
    public static let cannotStartLine: Set<Character> = [
        "、", "。", "」", "』", "）", "】", "，", "．", "・", "！", "？", "ー", "っ", "ゃ", "ゅ", "ょ",
    ]

    /// The lines of `text` at `width` terminal cells.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for character in text {
            let cells = terminalWidth(String(character))
            if used + cells > width && !line.isEmpty {
                // TODO: if `character` cannot start a line, take characters off the end of
                // `line` and start the new line with them instead of with `character` alone.
                lines.append(line)
                line = ""
                used = 0
            }
            line.append(character)
            used += cells
        }
        lines.append(line)
        return lines
    }
}
