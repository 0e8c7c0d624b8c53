import ExerciseChecks
import Foundation
import Testing

@testable import WorkshopTools

/// Every exercise's README.md and hints.md have Japanese twins, README.ja.md and hints.ja.md,
/// kept in step: the same headings, the same check command, the same checks in the table,
/// the same number of hints.
struct JapaneseDocumentsTests {
    static let ids = ExerciseCatalog.exercises.map(\.id)

    static func headings(_ markdown: String) -> [String] {
        var inCode = false
        return markdown.split(separator: "\n").map(String.init).filter { line in
            if line.hasPrefix("```") { inCode.toggle() }
            return !inCode && line.hasPrefix("#")
        }.map { String($0.prefix { $0 == "#" }) }
    }

    @Test(arguments: ids) func theJapaneseTextsAreInStepWithTheEnglish(id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let readme = try ExerciseFiles.document(exercise, "README.md")
        let japanese = try ExerciseFiles.document(exercise, "README.ja.md")
        #expect(japanese.hasPrefix("# 演習 \(id): "), "\(exercise.directory)/README.ja.md")
        #expect(japanese.contains("swift run workshop check \(id)"))
        #expect(Self.headings(japanese) == Self.headings(readme), "the same sections")
        // The table names the checks as `check` prints them, each in its README's language.
        let rows = try ExerciseFiles.tableRows(in: readme).compactMap { $0.first }
        let japaneseTable = japanese.replacingOccurrences(of: "| チェック |", with: "| check |")
        let japaneseRows = try ExerciseFiles.tableRows(in: japaneseTable).compactMap { $0.first }
        let japaneseNames = exercise.japaneseCheckNames.merging(
            [ExerciseRunner.compileCheck: ExerciseRunner.japanese(ExerciseRunner.compileCheck)]
        ) { first, _ in first }
        #expect(japaneseRows == rows.map { japaneseNames[$0] ?? $0 }, "README.ja.md's table: the Japanese names")
        #expect(zip(japaneseRows, rows).allSatisfy { $0 != $1 }, "every check has a Japanese name")

        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        let japaneseHints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.ja.md"))
        #expect(japaneseHints.count == hints.count && hints.count == exercise.hints)
        #expect(japaneseHints.enumerated().allSatisfy { $1.hasPrefix("\($0 + 1). ") })
        for text in [japanese, try ExerciseFiles.document(exercise, "hints.ja.md")] {
            #expect(!text.contains("swift test --filter"))
            #expect(!text.contains("linux" + "-facts") && !text.contains("../" + "shared"))
            // Some real Japanese, not an English copy.
            #expect(text.unicodeScalars.filter { (0x3040...0x30FF).contains($0.value) }.count > 20)
        }
    }
}
