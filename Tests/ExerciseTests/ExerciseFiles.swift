import ExerciseChecks
import Foundation

/// The exercise files the tests use: the copies as shipped and the references under
/// Tests/ExerciseFiles, never the learner's files in Exercises/ (which may be in any state).
enum ExerciseFiles {
    static let root = ExerciseRoot.builtFrom

    enum Kind: String {
        case shipped
        case solution
    }

    /// The exercise's files of `kind`, by name.
    static func sources(_ exercise: Exercise, _ kind: Kind) throws -> [String: Data] {
        var sources: [String: Data] = [:]
        for file in exercise.files {
            let path = root.appendingPathComponent("Tests/ExerciseFiles/\(exercise.folder)/\(kind.rawValue)/\(file)")
            sources[file] = try Data(contentsOf: path)
        }
        return sources
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
}
