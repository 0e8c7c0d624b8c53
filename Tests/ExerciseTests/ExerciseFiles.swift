import ExerciseChecks
import Foundation
import WorkshopTools

/// The exercise files the tests use: the files as shipped (the copies in `.meta/shipped`, see
/// `ShippedFiles`) and the references in `.meta/solution`, never the learner's files as they
/// are now (which may be in any state).
enum ExerciseFiles {
    static let root = ExerciseRoot.builtFrom

    enum Kind: String {
        case shipped
        case solution
    }

    /// The exercise's files of `kind`, by name.
    static func sources(_ exercise: Exercise, _ kind: Kind) throws -> [String: Data] {
        switch kind {
        case .shipped:
            return try ShippedFiles.sources(exercise, root: root)
        case .solution:
            var sources: [String: Data] = [:]
            for file in exercise.files {
                sources[file] = try Data(
                    contentsOf: root.appendingPathComponent(exercise.solutionDirectory + "/" + file))
            }
            return sources
        }
    }

    /// The one file of a one-file exercise, as text.
    static func text(_ exercise: Exercise, _ kind: Kind) throws -> String {
        let sources = try sources(exercise, kind)
        return String(decoding: sources[exercise.files[0]] ?? Data(), as: UTF8.self)
    }

    /// `text` as the exercise's one file.
    static func sources(_ exercise: Exercise, text: String) -> [String: Data] {
        [exercise.files[0]: Data(text.utf8)]
    }

    /// A file of the exercise's folder that is not the learner's (README.md, hints.md).
    static func document(_ exercise: Exercise, _ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("\(exercise.directory)/\(name)"), encoding: .utf8)
    }

    static func exercise(_ id: String) -> Exercise {
        guard let exercise = ExerciseCatalog.exercise(id: id) else { preconditionFailure("no exercise \(id)") }
        return exercise
    }

    /// The rows of the first table whose header starts with "| check |" (an exercise README's
    /// check table), without the header, each cell trimmed and unescaped (`\|` is a |); none
    /// when there is no such table.
    static func tableRows(in markdown: String) throws -> [[String]] {
        let lines = markdown.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| check |") }) else {
            return []
        }
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            var cells: [String] = []
            var cell = ""
            var escaped = false
            for character in line.dropFirst() {
                if escaped {
                    cell.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "|" {
                    cells.append(cell.trimmingCharacters(in: .whitespaces))
                    cell = ""
                } else {
                    cell.append(character)
                }
            }
            return cells
        }
    }
}
