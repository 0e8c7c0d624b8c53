import WorkshopCore

/// The reference solution of exercise 07 (kept here, out of the learner's way).
enum LineBreakerSolution {
    static let cannotStartLine: Set<Character> = [
        "、", "。", "」", "』", "）", "】", "，", "．", "・", "！", "？", "ー", "っ", "ゃ", "ゅ", "ょ",
    ]

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line: [Character] = []
        var used = 0
        for character in text {
            let cells = terminalWidth(String(character))
            if used + cells > width && !line.isEmpty {
                // Push characters down until the next line starts with one that may start it,
                // but leave at least one on this line (a line of only closing marks must break somewhere).
                var carried: [Character] = []
                var first = character
                while cannotStartLine.contains(first) && line.count > 1 {
                    first = line.removeLast()
                    carried.insert(first, at: 0)
                }
                lines.append(String(line))
                line = carried
                used = carried.reduce(0) { $0 + terminalWidth(String($1)) }
            }
            line.append(character)
            used += cells
        }
        lines.append(String(line))
        return lines
    }
}
