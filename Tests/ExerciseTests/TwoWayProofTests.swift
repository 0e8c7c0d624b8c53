import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Every exercise, both ways, through the path `workshop check` takes (compiled with its
/// driver, run in a child process): the copy as shipped compiles and fails the checks it is
/// meant to fail; the reference solution passes every check. And each README's table names
/// the checks and what they want exactly as `check` prints them.
///
/// No check decides on a stopwatch alone, so these hold on a busy machine too (`workshop verify
/// --repeat 10 --busy-cores 2` proves it ten times over, in the slow tier: BusyMachineSlowTests).
final class TwoWayProofSlowTests: XCTestCase {
    /// Every exercise in the catalog, each with its own messages (a new folder is proved here
    /// with no edit: what its file as shipped must fail is in its `.meta/exercise.json`).
    func testEveryExerciseBothWays() throws {
        XCTAssertFalse(ExerciseCatalog.exercises.isEmpty)
        for exercise in ExerciseCatalog.exercises { try proveBothWays(exercise.id) }
    }

    func proveBothWays(_ id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let runner = ExerciseRunner()

        let shipped = runner.check(exercise, sources: try ExerciseFiles.sources(exercise, .shipped))
        let shippedReport = shipped.results.map(\.description).joined(separator: "\n")
        XCTAssertEqual(shipped.results.first?.name, ExerciseRunner.compileCheck, shippedReport)
        XCTAssertEqual(shipped.results.first?.passed, true, "the copy as shipped must compile:\n\(shippedReport)")
        let failing = Set(shipped.failed.map(\.name))
        for name in exercise.failsAsShipped {
            XCTAssertTrue(failing.contains(name), "\(id) as shipped, \"\(name)\" must fail:\n\(shippedReport)")
        }

        let reference = runner.check(exercise, sources: try ExerciseFiles.sources(exercise, .solution))
        let referenceReport = reference.results.map(\.description).joined(separator: "\n")
        XCTAssertTrue(reference.passed, "\(id): the reference must pass every check:\n\(referenceReport)")
        XCTAssertGreaterThan(reference.results.count, 2, referenceReport)
        // The catalog knows the checks (so that a crash can list the ones that did not run).
        XCTAssertEqual(reference.results.map(\.name), [ExerciseRunner.compileCheck] + exercise.checks)
        // Both runs report the same checks, in the same order.
        if shipped.results.count > 1 {
            XCTAssertEqual(shipped.results.map(\.name), reference.results.map(\.name))
        }

        // The README's table: one row per check, its name and what it wants, as printed.
        let rows = try Self.tableRows(in: ExerciseFiles.document(exercise, "README.md"))
        let printed = reference.results.map { [$0.name, $0.expected] }
        XCTAssertEqual(
            rows, printed, "\(exercise.directory)/README.md's table must list the checks as `check` prints them")
    }

    /// The rows of the first table whose header starts with "| check |", without the header,
    /// each cell trimmed and unescaped (`\|` is a |).
    static func tableRows(in markdown: String) throws -> [[String]] {
        let lines = markdown.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| check |") }) else {
            XCTFail("no table starting with \"| check |\"")
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
