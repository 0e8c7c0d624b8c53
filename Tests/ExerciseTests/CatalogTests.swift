import ExerciseChecks
import Foundation
import Testing

/// The catalog agrees with the files it names, and every exercise has the one shape:
/// line 1 `// Exercise NN: <goal>`, line 2 the check command, numbered TODO(n) markers.
struct CatalogTests {
    static let ids = ExerciseCatalog.exercises.map(\.id)

    @Test func idsAreFoundAsTyped() {
        #expect(Self.ids == ["01", "01a", "02", "03", "03a", "04", "05", "06", "06a", "07", "R1", "R2"])
        #expect(ExerciseCatalog.exercise(id: "3")?.id == "03")
        #expect(ExerciseCatalog.exercise(id: "r1")?.id == "R1")
        #expect(ExerciseCatalog.exercise(id: "09") == nil)
        #expect(ExerciseCatalog.ids == "01, 01a, 02, 03, 03a, 04, 05, 06, 06a, 07, R1, R2")
    }

    /// A lesson's second exercise: "03a" as typed, in either case, or without its leading zero.
    @Test func lettersAfterALessonNumberAreFound() {
        #expect(ExerciseCatalog.exercise(id: "03a")?.id == "03a")
        #expect(ExerciseCatalog.exercise(id: "03A")?.id == "03a")
        #expect(ExerciseCatalog.exercise(id: "3a")?.id == "03a")
        #expect(ExerciseCatalog.exercise(id: "1a")?.id == "01a")
        #expect(ExerciseCatalog.exercise(id: "r2")?.id == "R2")
        #expect(ExerciseCatalog.exercise(id: "03b") == nil)
        #expect(ExerciseCatalog.exercise(id: "003a") == nil)
    }

    @Test(arguments: ids) func theFilesAndTheHintsAreThere(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        #expect(hints.count == exercise.hints, "\(exercise.directory)/hints.md")
        #expect(hints.enumerated().allSatisfy { $1.hasPrefix("\($0 + 1). ") })
        #expect(try ExerciseFiles.sources(exercise, .shipped).count == exercise.files.count)
        #expect(try ExerciseFiles.sources(exercise, .solution).count == exercise.files.count)
        // "03" and "03a" belong to lesson 03.
        #expect(exercise.lesson == nil || exercise.lesson == String(id.prefix(2)))
    }

    @Test(arguments: ids) func theShippedFileHasTheExerciseShape(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let shipped = try ExerciseFiles.text(exercise, .shipped)
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("// Exercise \(id): ") && lines[0].count > "// Exercise \(id): ".count + 10)
        #expect(lines[1] == "// Check it: swift run workshop check \(id)")
        let markers = lines.compactMap { line -> Int? in
            guard let range = line.range(of: "TODO(") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(!markers.isEmpty && markers == Array(1...markers.count), "TODO(1), TODO(2)... in order: \(markers)")
        #expect(lines.count <= 50, "\(lines.count) lines: as short as the task allows")

        // The reference keeps the first two lines and the stub's names, and has no TODO left.
        let solution = try ExerciseFiles.text(exercise, .solution)
        #expect(Array(solution.split(separator: "\n").prefix(2)).map(String.init) == Array(lines.prefix(2)))
        #expect(!solution.contains("TODO("))
    }

    @Test(arguments: ids) func theDocumentsSayTheOneCheckCommand(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let readme = try ExerciseFiles.document(exercise, "README.md")
        #expect(readme.hasPrefix("# Exercise \(id): "))
        #expect(readme.contains("swift run workshop check \(id)"))
        for text in [
            readme, try ExerciseFiles.document(exercise, "hints.md"), try ExerciseFiles.text(exercise, .shipped),
        ] {
            #expect(!text.contains("swift test --filter"))
            // Nothing points outside the repository (spelled in two parts so a grep finds no such path here).
            #expect(!text.contains("linux" + "-facts") && !text.contains("../" + "shared"))
        }
    }
}
