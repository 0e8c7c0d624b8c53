import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The editor reports a planted type error in an exercise's file and goes to the lesson
/// library's definition of a type the file uses, shown on an exercise that imports its kit.
@Suite struct EditorKitTests {
    /// The repository opened in the editor: the file as shipped has no error; a type error
    /// planted in it gets one, on its line; go-to-definition lands in Sources/LessonNNKit.
    @Test func theEditorTypeChecksAnExerciseFileAgainstItsLessonsLibrary() async throws {
        let lsp = try await EditorCase.client(workspace: EditorCase.root)
        let exercise = Subject.usesItsKit
        let lesson = try #require(exercise.lesson)
        let (uri, shipped) = EditorCase.exercise(exercise)

        try lsp.open(uri, text: shipped)
        #expect(try await lsp.errors(uri) == [], "the file as shipped type-checks")

        let planted = shipped + "\nlet workshopPlanted: Int = \"not a number\"\n"
        try lsp.change(uri, text: planted, version: 2)
        let errors = try await lsp.errors(uri)
        let plantedLine = planted.split(separator: "\n", omittingEmptySubsequences: false).count - 2
        #expect(
            errors.contains { $0.line == plantedLine }, "an error on the planted line \(plantedLine + 1): \(errors)")

        // Go to the definition of the first type the kit declares that the file uses.
        let kit = EditorCase.root.appendingPathComponent("Sources/Lesson\(lesson)Kit")
        let kitFiles = try FileManager.default.contentsOfDirectory(atPath: kit.path).filter { $0.hasSuffix(".swift") }
        let declared = try kitFiles.flatMap { file -> [String] in
            let text = try String(contentsOf: kit.appendingPathComponent(file), encoding: .utf8)
            let regex = try NSRegularExpression(
                pattern: #"public (?:final class|class|struct|enum|protocol|actor) (\w+)"#)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let use = lines.enumerated().lazy.compactMap { row, line -> (Int, Int, String)? in
            guard !line.hasPrefix("import"), !line.hasPrefix("//") else { return nil }
            for name in declared {
                if let range = line.range(of: name), line[range.upperBound...].first.map({ !$0.isLetter }) ?? true {
                    return (row, range.lowerBound.utf16Offset(in: line), name)
                }
            }
            return nil
        }.first
        let (row, column, name) = try #require(use, "\(exercise.id)'s file uses no type of Lesson\(lesson)Kit")
        let targets = try await lsp.definition(uri, line: row, character: column + 2)
        #expect(targets.contains { $0.contains("Sources/Lesson\(lesson)Kit/") }, "definition of \(name): \(targets)")
        await lsp.close()
    }
}
