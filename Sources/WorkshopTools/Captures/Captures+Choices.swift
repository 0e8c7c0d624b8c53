import Foundation
import WorkshopCore

extension Captures {
    /// The phrases the programs pick by what they measured, so that two runs of the same command
    /// may print either: each group's phrases stand in the same place, and the normaliser writes
    /// the group's first for any of them. `added` are phrases a busy machine adds, left out.
    /// Written as the code's English keys; their Japanese is read from the package's
    /// `Resources/ja.lproj/Localizable.strings`, so that a changed translation changes them too.
    public struct Choices: Sendable {
        /// The English keys, each group a list of alternatives.
        public static let groups: [[String]] = [
            // MachineControl.bannerLine: how late the main loop was with nothing to do.
            [
                "quiet", "busy: freezes up to that size are the machine's, not the code's",
                "busy: other programs used %1$.1f of the %2$d cores",
            ],
            // VariantComparison.verdict: one variant against another.
            VariantComparison.verdictPhrases,
            // workshop check: whether the check program was compiled now.
            ["compiled in %.1f s", "built before, not compiled again"],
            // LessonProgram.cancelTakeaway: when a variant handled the tap.
            [
                "%1$@ handled the tap at once and stopped %2$@ s after it (after the cancel: %3$@)",
                "%1$@ handled the tap %2$@ s late (main was busy) and stopped %3$@ s after it (after the cancel: %4$@)",
            ],
        ]

        /// What a busy machine adds (MachineControl, LessonProgram).
        public static let added: [String] = [
            "This machine was busy: its main loop was already up to %.3f s late with no work at all, so a freeze of that size is the machine's, not the code's.",
            "(a busy machine: see the takeaway)",
        ]

        /// What a run adds in English whatever its language: how many more race reports the
        /// thread sanitizer wrote (TSanReport, in the sanitizer's words; one race is reported
        /// once or twice, run to run).
        public static let addedInEnglish: [String] = ["(and %@)"]

        /// Each language's phrases as regular expressions: the added ones (taken out), then each
        /// group's (its clause written as the group's first phrase).
        let patterns: [Language: [(pattern: String, replacement: String, clause: Bool)]]

        /// What the banner says of a busy machine, in each language (`MachineControl.bannerLine`):
        /// each busy phrase's words before its first figure.
        let busyWords: [Language: [String]]

        /// Whether a run's output says the machine was busy: its figures are the machine's as much
        /// as the code's, and the claims about them may not hold.
        public func saysBusy(_ lines: [String], language: Language) -> Bool {
            let words = busyWords[language] ?? []
            return lines.contains { line in words.contains { line.contains($0) } }
        }

        /// The groups in English and in the Japanese of `translations` (English key: Japanese).
        public init(translations: [String: String]) {
            var patterns: [Language: [(String, String, Bool)]] = [:]
            for language in Language.allCases {
                func text(_ key: String) -> String { language == .en ? key : translations[key] ?? key }
                var list: [(String, String, Bool)] = []
                for phrase in Self.added.map(text) + Self.addedInEnglish {
                    // With the space before it, or after it when it starts the line.
                    list.append((" ?" + Self.pattern(phrase), "", false))
                }
                for group in Self.groups {
                    let first = "⟨" + Captures.masked(Self.plain(text(group[0]))) + "⟩"
                    // One pass over the group, its longest phrase first, so that a phrase is never
                    // taken for a shorter one, nor the group's first (written in) for a phrase again.
                    let phrases = group.map(text).sorted { $0.count > $1.count }.map(Self.pattern)
                    list.append(("(?:" + phrases.joined(separator: "|") + ")", first, true))
                }
                patterns[language] = list
            }
            self.patterns = patterns
            let busy = Self.groups[0].dropFirst()
            func words(_ phrase: String) -> String {
                String(phrase[..<(phrase.firstIndex(of: "%") ?? phrase.endIndex)])
            }
            busyWords = [.en: busy.map(words), .ja: busy.map { words(translations[$0] ?? $0) }]
        }

        /// What ends a clause, in English and in Japanese (a number's point is masked by then), and
        /// the parentheses around one ("(quiet)"), so that the words beside it are still compared.
        static let clauseEnds: Set<Character> = [",", ".", ";", ":", "、", "。", "：", "；", "(", ")", "（", "）"]

        /// The Japanese of every program's texts in the package at `root`: every
        /// `Sources/*/Resources/ja.lproj/Localizable.strings`, merged.
        public static func translations(root: URL) -> [String: String] {
            let sources = root.appendingPathComponent("Sources")
            var merged: [String: String] = [:]
            for folder in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let file = sources.appendingPathComponent("\(folder)/Resources/ja.lproj/Localizable.strings")
                guard let data = FileManager.default.contents(atPath: file.path),
                    let table = try? PropertyListSerialization.propertyList(from: data, format: nil)
                        as? [String: String]
                else { continue }
                merged.merge(table) { first, _ in first }
            }
            return merged
        }

        public init(root: URL) { self.init(translations: Self.translations(root: root)) }

        /// A masked line with each chosen phrase as its group's first, each added one left out.
        ///
        /// A group's phrase stands for its whole clause (up to the punctuation on either side):
        /// the alternatives place their arguments differently ("%@と同じくらい速く" against
        /// "今回は%1$@より遅く"), so only the clause as a whole reads the same whichever was picked.
        func applied(to line: String, language: Language) -> String {
            var line = line
            for (pattern, replacement, clause) in patterns[language] ?? [] {
                guard clause else {
                    line = line.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
                    continue
                }
                var searchFrom = line.startIndex
                while let found = line.range(
                    of: pattern, options: .regularExpression, range: searchFrom..<line.endIndex),
                    !found.isEmpty
                {
                    var start = found.lowerBound
                    while start > line.startIndex, !Self.clauseEnds.contains(line[line.index(before: start)]) {
                        start = line.index(before: start)
                    }
                    var end = found.upperBound
                    while end < line.endIndex, !Self.clauseEnds.contains(line[end]) { end = line.index(after: end) }
                    let kept = line.distance(from: line.startIndex, to: start) + replacement.count
                    line.replaceSubrange(start..<end, with: replacement)
                    searchFrom = line.index(line.startIndex, offsetBy: kept)
                }
            }
            return line.trimmingCharacters(in: .whitespaces)
        }

        /// A format ("as fast as %1$@ but with a longer freeze (%2$@)") without its specifiers.
        static func plain(_ format: String) -> String {
            format.replacingOccurrences(of: specifier, with: "…", options: .regularExpression)
        }

        static let specifier = #"%([0-9]+\$)?(\.[0-9])?[@dfs]"#

        /// A format as a regular expression over a masked line: its text as written (numbers
        /// masked, spaces collapsed), each specifier any text up to a punctuation mark.
        static func pattern(_ format: String) -> String {
            let slot = "\u{1}"
            let marked = format.replacingOccurrences(of: specifier, with: slot, options: .regularExpression)
            var pattern = ""
            for character in Captures.masked(marked) {
                if String(character) == slot {
                    pattern += #"[^;,、。()（）]*?"#
                } else if "\\^$.|?*+()[]{}".contains(character) {
                    pattern += "\\" + String(character)
                } else {
                    pattern.append(character)
                }
            }
            // A specifier at the end takes all it can.
            // (Up to the sentence's end: a phrase that ends in a word is followed by its ".".)
            if pattern.hasSuffix(#"[^;,、。()（）]*?"#) { pattern = String(pattern.dropLast(3)) + #".]*"# }
            return pattern
        }
    }
}
