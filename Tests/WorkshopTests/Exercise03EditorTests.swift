import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// The case, on exercise 03's file: the editor reports a planted type error there and
/// goes to the lesson library's definition.
final class Exercise03EditorTests: XCTestCase {
    /// The repository opened in the editor: the file as shipped has no error; a type error
    /// planted in it gets one, on its line; go-to-definition lands in Sources/Lesson03Kit.
    func testTheEditorTypeChecksAnExerciseFileAgainstItsLessonsLibrary() throws {
        let lsp = try EditorTests.client(workspace: EditorTests.root)
        defer { lsp.close() }
        let (uri, shipped) = EditorTests.exercise(ExerciseCatalog.named("03"))
        let line = "let icon = try? client.icon(for: entry)"
        XCTAssertTrue(shipped.contains(line), "exercise 03's file changed shape")

        try lsp.open(uri, text: shipped)
        XCTAssertEqual(try lsp.errors(uri), [], "the file as shipped type-checks")

        let planted = shipped.replacingOccurrences(of: line, with: "let icon: Int = try? client.icon(for: entry)")
        try lsp.change(uri, text: planted, version: 2)
        let errors = try lsp.errors(uri)
        let plantedLine =
            planted.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("let icon: Int") }
        XCTAssertTrue(
            errors.contains { $0.line == plantedLine && $0.message.contains("Int") },
            "an error on the planted line \((plantedLine ?? -1) + 1): \(errors)")

        // Go to the definition of `TimelineClient`: into the lesson's library.
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try XCTUnwrap(lines.firstIndex { $0.contains("using client: TimelineClient") })
        let column = try XCTUnwrap(lines[row].range(of: "TimelineClient")).lowerBound.utf16Offset(in: lines[row])
        let targets = try lsp.definition(uri, line: row, character: column + 2)
        XCTAssertTrue(
            targets.contains { $0.hasSuffix("Sources/Lesson03Kit/TimelineClient.swift") }, "definition: \(targets)")
    }

}
