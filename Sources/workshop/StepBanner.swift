import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// The presenter's "large type": a terminal has no font size, so a step opens with its number
/// in big block digits, its title in bold beside it and its point under the title, framed by
/// heavy rules, for the back of the room. Plain characters when there is no colour.
enum StepBanner {
    /// Digits five rows high, each "pixel" two cells wide so they look square.
    static let glyphs: [Character: [String]] = [
        "0": ["###", "# #", "# #", "# #", "###"], "1": [" # ", "## ", " # ", " # ", "###"],
        "2": ["###", "  #", "###", "#  ", "###"], "3": ["###", "  #", "###", "  #", "###"],
        "4": ["# #", "# #", "###", "  #", "  #"], "5": ["###", "#  ", "###", "  #", "###"],
        "6": ["###", "#  ", "###", "# #", "###"], "7": ["###", "  #", "  #", "  #", "  #"],
        "8": ["###", "# #", "###", "# #", "###"], "9": ["###", "# #", "###", "  #", "###"],
    ]

    /// `number` in big digits: five lines of equal width.
    static func bigNumber(_ number: Int) -> [String] {
        let digits = String(number).compactMap { glyphs[$0] }
        return (0..<5).map { row in
            digits.map { glyph in
                glyph[row].map { $0 == "#" ? "██" : "  " }.joined()
            }.joined(separator: "  ")
        }
    }

    /// The whole banner of step `step` (1-based) of `count`: its number, title and point, then
    /// every command the step's section quotes, the lesson's own (which the step runs, with the
    /// flags `added`) in bold, any other (a server for a second terminal) dim, with its comment.
    static func lines(
        lesson: String, step: Int, of count: Int, demo: LessonDemo, added: [String], width: Int
    ) -> [String] {
        let rule = Style.dim(String(repeating: "━", count: width))
        let right = Text.presentStep(step, of: count)
        let heading = truncate(lesson, toWidth: max(10, width - terminalWidth(right) - 3))
        var lines = [
            rule, " " + Style.pad(heading, width - terminalWidth(right) - 2) + right, rule, "",
        ]
        let big = bigNumber(step)
        let left = (big.first.map(terminalWidth) ?? 0) + 4
        let textWidth = max(20, width - left - 1)
        let beside =
            wrap(demo.title, width: textWidth).map { Style.paint($0, "1;36") } + [""]
            + wrap(demo.point, width: textWidth)
        for row in 0..<max(big.count, beside.count) {
            let digits = row < big.count ? Style.paint(big[row], "36") : ""
            let plainDigits = row < big.count ? big[row] : ""
            lines.append(
                "  " + Style.pad(digits, left - 2, visible: plainDigits) + (row < beside.count ? beside[row] : ""))
        }
        lines.append("")
        for command in demo.commands {
            let own = command.product == demo.product
            let text = "$ " + (own ? ([command.text] + added).joined(separator: " ") : command.quoted)
            // A long line is wrapped here, not by the terminal: the banner's height must be known.
            for (index, part) in wrap(text, width: width - 4).enumerated() {
                let shown = (index == 0 ? "" : "  ") + part
                lines.append("  " + (own ? Style.bold(shown) : Style.dim(shown)))
            }
        }
        lines.append("")
        return lines
    }

    /// A box around `text` (the takeaway), its label in the top rule.
    static func box(_ label: String, _ text: String, width: Int) -> [String] {
        let inner = max(20, width - 4)
        let top = "┌─ " + label + " " + String(repeating: "─", count: max(0, width - terminalWidth(label) - 5)) + "┐"
        var lines = [Style.dim(top)]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).flatMap({
            wrap(String($0), width: inner)
        }) {
            lines.append(Style.dim("│ ") + Style.bold(Style.pad(line, inner)) + Style.dim(" │"))
        }
        lines.append(Style.dim("└" + String(repeating: "─", count: max(0, width - 2)) + "┘"))
        return lines
    }

    /// `text` in lines of at most `width` terminal cells: broken at the last place it can be,
    /// after a space or next to a Japanese character (Japanese has no spaces), never inside a
    /// Latin word ("Screen"), before a closing mark (、。」) or after an opening one (「().
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for character in text {
            line.append(character)
            guard terminalWidth(line) > width else { continue }
            let cut = breakPoint(in: line)
            lines.append(String(line[..<cut].reversed().drop { $0 == " " }.reversed()))
            line = String(line[cut...].drop { $0 == " " })
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Where the next line starts in `line`, one character too wide: the last place it may break
    /// (see `wrap`), or before its last character when there is none.
    static func breakPoint(in line: String) -> String.Index {
        let last = line.index(before: line.endIndex)
        var index = last
        while index > line.startIndex {
            let before = line[line.index(before: index)]
            let after = line[index]
            if before == " " { return index }
            let japanese = terminalWidth(String(before)) == 2 || terminalWidth(String(after)) == 2
            if japanese, after != " ", !"、。，．」』）)!?:;,.".contains(after), !"「『（(".contains(before) {
                return index
            }
            index = line.index(before: index)
        }
        return last
    }
}
