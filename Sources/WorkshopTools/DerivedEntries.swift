import ExerciseChecks
import Foundation
import WorkshopCore

/// What `workshop sync` writes into `.meta/exercise.json` besides the check names, from the
/// exercise's own files, so that nobody copies it there by hand:
/// - `hints`: how many hints `hints.md` has;
/// - `failsAsShipped`, when it names a check the checks no longer declare (an author who
///   replaced the checks): the declared checks the file as shipped fails, run as `check` runs it;
/// - `uses`, when it names a function or type that the learner's files (and `given.swift`) no
///   longer declare: the declarations of the learner's files the driver and the checks call.
/// An entry that still holds is kept as written: most are written with more care than this.
public enum DerivedEntries {
    /// The Swift files `uses` may name besides the learner's: `given.swift`, and the sources of
    /// `ExerciseChecks` and of the lesson's kit under `root`.
    public static func foundations(_ exercise: Exercise, root: URL) -> [String] {
        var folders = ["Sources/ExerciseChecks"]
        if let lesson = exercise.lesson { folders.append("Sources/Lesson\(lesson)Kit") }
        let sources = folders.flatMap { folder in
            TemplateFiles.list(folder, root: root).filter { $0.hasSuffix(".swift") }.compactMap {
                try? String(contentsOf: root.appendingPathComponent(folder + "/" + $0), encoding: .utf8)
            }
        }
        return (exercise.checkSources["given.swift"].map { [$0] } ?? []) + sources
    }

    /// `.meta/exercise.json`'s `"hints": N` with `count`; nil when it has no such line.
    public static func withHints(_ text: String, count: Int) -> String? {
        guard let range = text.range(of: #"\n  "hints": [0-9]+,"#, options: .regularExpression) else { return nil }
        return text.replacingCharacters(in: range, with: "\n  \"hints\": \(count),")
    }

    /// `.meta/exercise.json` with `failsAsShipped` as `names`; nil when it has no such list.
    public static func withFailsAsShipped(_ text: String, names: [String]) -> String? {
        guard let key = text.range(of: "\n  \"failsAsShipped\": ["),
            let close = text.range(of: "\n  ]", range: key.upperBound..<text.endIndex)
        else { return nil }
        let entries = names.map { "    " + ExerciseSync.json($0) }.joined(separator: ",\n")
        return String(text[..<key.upperBound]) + "\n" + entries + String(text[close.lowerBound...])
    }

    /// `.meta/exercise.json` with `uses` as `english` and `japanese`; nil when it has none.
    public static func withUses(_ text: String, english: String, japanese: String) -> String? {
        guard let key = text.range(of: "\n  \"uses\": {"),
            let close = text.range(of: "\n  }", range: key.upperBound..<text.endIndex)
        else { return nil }
        return String(text[..<key.upperBound]) + "\n    \"en\": \(ExerciseSync.json(english)),\n    \"ja\": "
            + ExerciseSync.json(japanese) + String(text[close.lowerBound...])
    }

    // MARK: - uses

    /// A declaration in a type of the learner's files: a function, an initializer, a property.
    struct Member: Equatable {
        var name: String
        /// "(for:into:)"; nil for a property.
        var labels: String?
    }

    /// The types of `source` (declared or extended at the top level) and their members.
    static func declarations(in source: String) -> [(type: String, members: [Member])] {
        let code = Array(withoutCommentsAndStrings(source))
        var depth = 0
        var types: [(type: String, members: [Member])] = []
        var index = 0
        while index < code.count {
            let character = code[index]
            if character == "{" { depth += 1 } else if character == "}" { depth = max(0, depth - 1) }
            guard character.isLetter, index == 0 || !isWord(code[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < code.count, isWord(code[end]) { end += 1 }
            let word = String(code[index..<end])
            let next = nextWord(code, from: end)
            if depth == 0, ["class", "struct", "enum", "actor", "protocol", "extension"].contains(word), let next {
                if !types.contains(where: { $0.type == next.word }) { types.append((next.word, [])) }
            } else if depth == 1, !types.isEmpty, ["func", "var", "let"].contains(word), let next {
                let labels = word == "func" ? parameterLabels(code, from: next.end) : nil
                types[types.count - 1].members.append(Member(name: next.word, labels: labels))
            } else if depth == 1, !types.isEmpty, word == "init" {
                types[types.count - 1].members.append(Member(name: "init", labels: parameterLabels(code, from: end)))
            }
            index = end
        }
        return types
    }

    /// What `uses` says for the learner's `files`, from what `calls` (the driver and the checks)
    /// mention of them: "Type(labels:)" for an initializer, "Type.name(labels:)" for the rest;
    /// nil when they mention nothing.
    public static func uses(files: [String], calls: String, japanese: Bool) -> String? {
        var items: [String] = []
        for (type, members) in files.flatMap(declarations(in:)) where mentions(calls, #"\b"# + type + #"\b"#) {
            var named: [String] = []
            for member in members {
                if member.name == "init", mentions(calls, #"\b"# + type + #"\s*\("#) {
                    named.append(type + (member.labels ?? "()"))
                } else if member.name != "init", mentions(calls, #"\."# + member.name + #"\b"#) {
                    named.append(type + "." + member.name + (member.labels ?? ""))
                }
            }
            var unique: [String] = []
            for item in named.isEmpty ? [type] : named where !unique.contains(item) { unique.append(item) }
            items += unique
        }
        guard let last = items.last else { return nil }
        let rest = items.dropLast()
        if rest.isEmpty { return last }
        return japanese
            ? rest.joined(separator: "、") + " と " + last : rest.joined(separator: ", ") + " and " + last
    }

    /// Whether `uses` names a function, a type or a member (a name right before "(" or after ".")
    /// that no file of `declaring` declares (the learner's files, `given.swift`, and what they
    /// build on: `ExerciseChecks`, the lesson's kit).
    public static func isStale(_ uses: String, declaring files: [String]) -> Bool {
        let code = files.map { String(withoutCommentsAndStrings($0)) }.joined(separator: "\n")
        let declared = Set(
            code.matches(of: /\b(?:class|struct|enum|actor|protocol|typealias|func|var|let|case)\s+([A-Za-z_]\w*)/)
                .map { String($0.output.1) })
        let named =
            uses.matches(of: /([A-Za-z_]\w*)\(/).map { String($0.output.1) }
            + uses.matches(of: /\.([A-Za-z_]\w*)/).map { String($0.output.1) }
        return named.contains { $0 != "init" && !declared.contains($0) }
    }

    static func mentions(_ text: String, _ pattern: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }

    static func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }

    /// The word after `index`, past white space, and where it ends.
    static func nextWord(_ code: [Character], from index: Int) -> (word: String, end: Int)? {
        var start = index
        while start < code.count, code[start].isWhitespace { start += 1 }
        var end = start
        while end < code.count, isWord(code[end]) { end += 1 }
        return end > start ? (String(code[start..<end]), end) : nil
    }

    /// "(for:into:)" from the parameter list that starts at or after `index` (past generic
    /// parameters): each parameter's first word, its label.
    static func parameterLabels(_ code: [Character], from index: Int) -> String? {
        var start = index
        while start < code.count, code[start] != "(", code[start] != "{" { start += 1 }
        guard start < code.count, code[start] == "(" else { return nil }
        var depth = 0
        var parameters: [String] = [""]
        var previous: Character = " "
        for character in code[start...] {
            defer { previous = character }
            if "([<".contains(character) { depth += 1 }
            if ")]".contains(character) || (character == ">" && previous != "-") { depth -= 1 }
            if depth == 0 { break }
            if depth == 1, character == "," {
                parameters.append("")
            } else if !(depth == 1 && character == "(") {
                parameters[parameters.count - 1].append(character)
            }
        }
        let labels = parameters.compactMap { parameter -> String? in
            let words = parameter.split(separator: ":", maxSplits: 1).first?.split(whereSeparator: \.isWhitespace)
            return words?.first.map(String.init)
        }
        return "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    /// `source` with comments and the contents of string literals blanked (braces in them count for nothing).
    static func withoutCommentsAndStrings(_ source: String) -> String {
        var result = ""
        var characters = Substring(source)
        while let character = characters.first {
            if characters.hasPrefix("//") {
                characters = characters.drop { $0 != "\n" }
            } else if characters.hasPrefix("/*") {
                if let end = characters.range(of: "*/") { characters = characters[end.upperBound...] } else { break }
            } else if characters.hasPrefix("\"\"\"") {
                result += "\"\""
                characters = characters.dropFirst(3)
                if let end = characters.range(of: "\"\"\"") {
                    characters = characters[end.upperBound...]
                } else {
                    break
                }
            } else if character == "\"" {
                result += "\"\""
                characters = characters.dropFirst()
                while let inside = characters.first, inside != "\"", inside != "\n" {
                    characters = characters.dropFirst(inside == "\\" ? 2 : 1)
                }
                characters = characters.dropFirst()
            } else {
                result.append(character)
                characters = characters.dropFirst()
            }
        }
        return result
    }
}
