import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// As committed, each learner's file is its copy as shipped (`.meta/shipped/<file>`, what
/// `reset` restores and the tests read), byte for byte: an author who changed the file as
/// shipped and committed it without running `workshop sync` is told to. Both sides are read
/// from git's HEAD, so work not committed yet is not judged.
///
/// In the slow tier, not the learner's suite: a learner who commits their own work in their
/// clone has a learner's file at HEAD that is rightly not as shipped. CI runs it in its clean
/// clone. With no git (a ZIP download), or a file or copy not committed yet, there is nothing
/// to compare.
@Suite struct ShippedCopySlowTests {
    @Test(arguments: ExerciseCatalog.exercises.map(\.id))
    func theCommittedFileIsItsCopyAsShipped(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        for file in exercise.files {
            let path = exercise.directory + "/" + file
            let copy = ShippedFiles.path(exercise, file)
            let committed = try Self.atHead(path)
            let committedCopy = try Self.atHead(copy)
            guard let committed, let committedCopy else { continue }
            #expect(
                committed == committedCopy,
                """
                \(path) differs from its copy as shipped, \(copy), as both are committed: if you \
                changed the file as shipped, run `swift run workshop sync \(id)` and commit the copy
                """)
        }
    }

    /// `path` as HEAD has it; nil when there is no git here or HEAD has no such file.
    static func atHead(_ path: String) throws -> Data? {
        let show = try Subprocess.run("git", ["-C", ExerciseFiles.root.path, "show", "HEAD:" + path], timeout: 20)
        return show.succeeded ? Data(show.stdout.utf8) : nil
    }
}
