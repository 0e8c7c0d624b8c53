import WorkshopCore

/// How a label breaks its text into lines, as swift-layout's `createWordWrappingLabel`
/// (NSLineBreakMode.ByWordWrapping) and `createCharWrappingLabel` (ByCharWrapping).
enum WrapMode: String, Sendable {
    /// Break at spaces; a word longer than the whole line is cut where it must be.
    case word
    /// Break after whichever character fills the line.
    case character
}

/// Text measured in terminal cells: East Asian wide characters take two, others one
/// (`terminalWidth` in the core). A wide character is never split across two lines.
/// Public for exercise checks that compare a learner's wrapping with plain character wrapping.
public enum TextWrapping {
    /// The text's width on one line: a label's *intrinsic* width.
    static func oneLineWidth(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { terminalWidth(String($0)) }.max() ?? 0
    }

    /// The lines `text` takes at `width` cells. Newlines in the text always break.
    static func wrap(_ text: String, width: Int, mode: WrapMode) -> [String] {
        let width = max(1, width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            switch mode {
            case .word: wrapWords(String(paragraph), width: width)
            case .character: wrapCharacters(String(paragraph), width: width)
            }
        }
    }

    /// Fills each line with as many characters as fit. A character wider than the whole
    /// line (a wide one at width 1) gets a line of its own rather than looping forever.
    public static func wrapCharacters(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for character in text {
            let cells = terminalWidth(String(character))
            if used + cells > width && !line.isEmpty {
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

    /// Puts words on a line while they fit, one space between them. The spaces where a
    /// line breaks are dropped, as a label drops them.
    static func wrapWords(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            let wordWidth = terminalWidth(word)
            if line.isEmpty {
                // fall through: the word starts the line
            } else if terminalWidth(line) + 1 + wordWidth <= width {
                line += " " + word
                continue
            } else {
                lines.append(line)
                line = ""
            }
            if wordWidth <= width {
                line = word
            } else {
                // Longer than a whole line: cut it by characters, keep its tail on the new line.
                let pieces = wrapCharacters(word, width: width)
                lines += pieces.dropLast()
                line = pieces.last ?? ""
            }
        }
        lines.append(line)
        return lines
    }
}
