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

    /// The whole banner of step `step` (1-based) of `count`.
    static func lines(
        lesson: String, step: Int, of count: Int, demo: LessonDemo, command: String, width: Int
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
        lines += ["", "  " + Style.bold("$ " + command), ""]
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

    /// `text` in lines of at most `width` terminal cells: broken at a space when there is one,
    /// anywhere in Japanese (which has none).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for character in text {
            line.append(character)
            guard terminalWidth(line) > width else { continue }
            if let space = line.lastIndex(of: " "), line.distance(from: line.startIndex, to: space) > 0 {
                lines.append(String(line[..<space]))
                line = String(line[line.index(after: space)...])
            } else {
                lines.append(String(line.dropLast()))
                line = String(character)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
