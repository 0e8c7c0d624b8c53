import Foundation
import WorkshopCore

/// The learner's files as shipped: a copy of each, byte for byte, in the exercise's
/// `.meta/shipped/`, beside the reference in `.meta/solution/`. The workshop carries what it
/// ships, as rustlings carries its exercises in its own program so that its reset needs no git:
/// `reset`, `solution`, `verify`, the captures, the tutorials and the tests read the copies, so
/// they work the same in a clone, in a ZIP download (no `.git`) and after the learner committed
/// their work. `workshop sync` writes a copy from the learner's file in the tree (an author's
/// change), and `ShippedCopySlowTests` (the slow tier, run by CI in its clean clone) fails,
/// saying so, while the file committed differs from its copy committed.
public enum ShippedFiles {
    /// A copy as shipped that is not in the exercise's folder.
    public struct Missing: Error, CustomStringConvertible {
        /// The copy, relative to the package root ("Exercises/NN-name/.meta/shipped/File.swift").
        public let path: String
        public var description: String {
            "\(path) is missing: it is the file as shipped, which comes with the workshop (download or clone the "
                + "workshop again, or copy that one file from a copy of it); an exercise's author writes it with "
                + "`swift run workshop sync`"
        }
    }

    /// Where `file`'s copy as shipped is, relative to the package root.
    public static func path(_ exercise: Exercise, _ file: String) -> String { exercise.shippedDirectory + "/" + file }

    /// Each of the exercise's files as shipped, by name.
    public static func sources(_ exercise: Exercise, root: URL) throws(Missing) -> [String: Data] {
        var sources: [String: Data] = [:]
        for file in exercise.files { sources[file] = try contents(exercise, file, root: root) }
        return sources
    }

    /// One file as shipped.
    public static func contents(_ exercise: Exercise, _ file: String, root: URL) throws(Missing) -> Data {
        let copy = path(exercise, file)
        guard exercise.files.contains(file), let data = FileManager.default.contents(atPath: root.path + "/" + copy)
        else { throw Missing(path: copy) }
        return data
    }

    /// A copy that differs from the learner's file in the tree (or is missing), and the bytes
    /// `workshop sync` writes there: the learner's file as it is, the author's change.
    public struct Change: Sendable, Equatable {
        public var path: String
        public var data: Data
    }

    /// The copies of `exercise` (under `root`) that are not the learner's files in the tree.
    /// A learner's file that is missing changes nothing (`reset` brings it back from its copy).
    public static func changes(_ exercise: Exercise, root: URL) -> [Change] {
        exercise.files.compactMap { file in
            guard let learner = FileManager.default.contents(atPath: root.path + "/" + exercise.directory + "/" + file)
            else { return nil }
            let copy = path(exercise, file)
            return FileManager.default.contents(atPath: root.path + "/" + copy) == learner
                ? nil : Change(path: copy, data: learner)
        }
    }
}
