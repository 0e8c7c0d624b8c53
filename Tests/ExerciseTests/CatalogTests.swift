import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The catalog agrees with the files it names, and every exercise has the one shape:
/// line 1 `// Exercise NN: <goal>`, line 2 the check command, numbered TODO(n) markers.
struct CatalogTests {
    static let ids = ExerciseCatalog.exercises.map(\.id)

    /// Every folder under Exercises/ with a `.meta` is in the catalog, and nothing is wrong with one.
    @Test func everyFolderIsReadWithoutProblems() {
        #expect(ExerciseCatalog.problems.isEmpty, "\(ExerciseCatalog.problems)")
        let folders =
            (try? FileManager.default.contentsOfDirectory(atPath: ExerciseFiles.root.path + "/Exercises")) ?? []
        let withMeta = folders.filter {
            FileManager.default.fileExists(atPath: ExerciseFiles.root.path + "/Exercises/\($0)/.meta/exercise.json")
        }
        #expect(Set(withMeta) == Set(ExerciseCatalog.exercises.map(\.folder)))
        #expect(Set(Self.ids).count == Self.ids.count, "ids are unique")
    }

    /// An id is found as typed: either case, with or without a lesson's leading zero ("9a": "09a").
    @Test(arguments: ids) func idsAreFoundAsTyped(id: String) {
        #expect(ExerciseCatalog.exercise(id: id)?.id == id)
        #expect(ExerciseCatalog.exercise(id: id.lowercased())?.id == id)
        #expect(ExerciseCatalog.exercise(id: id.uppercased())?.id == id)
        if id.hasPrefix("0") { #expect(ExerciseCatalog.exercise(id: String(id.dropFirst()))?.id == id) }
    }

    /// Every README says how `check` compiles the learner's file (in both languages), and the
    /// editor's flags and the runner's agree: Swift 6 with the upcoming features of Approachable
    /// Concurrency (SE-0461, SE-0470), which Swift 6.2 and 6.3 leave off unless asked.
    @Test(arguments: ids) func everyExerciseSaysHowItIsCompiled(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        for (name, japanese) in [("README.md", false), ("README.ja.md", true)] {
            let text = try ExerciseFiles.document(exercise, name)
            #expect(
                text.contains(ExerciseScaffold.compiledAs(japanese: japanese)),
                "\(exercise.directory)/\(name) says how check compiles the file")
        }
        let flags = try String(
            contentsOfFile: ExerciseFiles.root.path + "/" + exercise.directory + "/compile_flags.txt", encoding: .utf8)
        #expect(flags.split(separator: "\n").starts(with: ExerciseRunner.languageFlags.map { Substring($0) }))
    }

    /// Lesson exercises first, in id order, then those of no lesson.
    @Test func theOrderIsLessonsThenTheRest() {
        let lessons = ExerciseCatalog.exercises.prefix { $0.lesson != nil }
        #expect(lessons.map(\.id) == lessons.map(\.id).sorted())
        #expect(ExerciseCatalog.exercises.dropFirst(lessons.count).allSatisfy { $0.lesson == nil })
        #expect(ExerciseCatalog.exercise(id: "nonexistent") == nil)
    }

    /// `exercise.json` names no fingerprint of the file as shipped: the copy in `.meta/shipped`
    /// is the one record of it (`ShippedCopySlowTests` compares it with the file in git).
    @Test(arguments: ids) func theCopyIsTheOneRecordOfTheFileAsShipped(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let json = try ExerciseFiles.document(exercise, ".meta/exercise.json")
        let keys = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]).keys
        #expect(
            !keys.contains("shipped"),
            "\(exercise.metaDirectory)/exercise.json: the copy in .meta/shipped replaces 'shipped'")
    }

    @Test(arguments: ids) func theFilesAndTheHintsAreThere(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        #expect(hints.count == exercise.hints, "\(exercise.directory)/hints.md")
        #expect(hints.enumerated().allSatisfy { $1.hasPrefix("\($0 + 1). ") })
        #expect(try ExerciseFiles.sources(exercise, .shipped).count == exercise.files.count)
        #expect(try ExerciseFiles.sources(exercise, .solution).count == exercise.files.count)
        // "NN" and "NNa" belong to lesson NN.
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
