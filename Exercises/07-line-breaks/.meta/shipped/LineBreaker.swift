// Exercise 07: Japanese line-break rules: 、。」 and the other closing marks never start a line.
// Check it: swift run workshop check 07
import WorkshopCore

/// Wraps text by character, like swift-layout's `createCharWrappingLabel`: Japanese has no
/// spaces between words, so a line breaks after whichever character fills it. But a line must
/// never *start* with a closing mark (`cannotStartLine`). Keep the rule (禁則処理) by pushing
/// characters down (追い出し): when the character that would start the next line is one of
/// them, the last character of the full line moves down with it, and so on while the new
/// first character is still one. Every line stays within `width` cells (a wide character
/// takes two, see `terminalWidth`), and no character is lost or moved out of order.
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
                // TODO(1): if `character` cannot start a line, take characters off the end of
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
