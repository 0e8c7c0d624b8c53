import ExerciseChecks
import Foundation
import XCTest

/// Every exercise, both ways, through the path `workshop check` takes (compiled with its
/// driver, run in a child process): the copy as shipped compiles and fails the checks it is
/// meant to fail; the reference solution passes every check. And each README's table names
/// the checks and what they want exactly as `check` prints them.
///
/// No check decides on a stopwatch alone, so these hold on a busy machine too (`workshop verify
/// --repeat 10 --busy-cores 2` proves it ten times over, in the slow tier: BusyMachineTests).
final class TwoWayProofTests: XCTestCase {
    /// The checks each copy as shipped must fail (more may fail on a bad day, never fewer).
    static let failingAsShipped: [String: [String]] = [
        "01": ["waits for its fetch", "a failed fetch is passed on", "a cancelled fetch is passed on"],
        "02": ["the idle thread sleeps"],
        "03": ["fetches off the main thread", "the Screen never hangs"],
        "04": [
            "asks for gzip", "decodes a gzip body", "corrupt gzip is an error", "truncated gzip is an error",
            "a dropped connection is an error",
        ],
        "05": ["one query, however many orders"],
        "06": ["a row that exists keeps its message", "a row that exists stays the same row (its replies survive)"],
        "07": ["no line starts with 、。」』）！？", "the article's poem with punctuation, at 8 cells"],
        "R1": ["no data race under the thread sanitizer"],
        "01a": [
            "the user and the items are fetched side by side", "a failed request is thrown, not shown",
            "a cancel stops the requests in flight", "a cancel ends the call promptly",
            "nothing is shown after a cancel", "the cancel reaches the caller as CancellationError",
        ],
        "03a": ["fetches `width` icons at once"],
        "06a": [
            "a message is stored as typed, quotes and all", "a reader never sees half a batch",
            "a batch with a duplicate id is an error and saves none of its rows",
        ],
        "R2": [
            "each avatar is fetched once, however many ask at once", "everyone asking for a name gets the same avatar",
        ],
    ]

    func test01() throws { try proveBothWays("01") }
    func test02() throws { try proveBothWays("02") }
    func test03() throws { try proveBothWays("03") }
    func test04() throws { try proveBothWays("04") }
    func test05() throws { try proveBothWays("05") }
    func test06() throws { try proveBothWays("06") }
    func test07() throws { try proveBothWays("07") }
    func testR1() throws { try proveBothWays("R1") }
    func test01a() throws { try proveBothWays("01a") }
    func test03a() throws { try proveBothWays("03a") }
    func test06a() throws { try proveBothWays("06a") }
    func testR2() throws { try proveBothWays("R2") }

    func testEveryExerciseIsProvedHere() {
        XCTAssertEqual(Set(Self.failingAsShipped.keys), Set(ExerciseCatalog.exercises.map(\.id)))
    }

    func proveBothWays(_ id: String) throws {
        let exercise = ExerciseFiles.exercise(id)
        let runner = ExerciseRunner()

        let shipped = runner.check(exercise, sources: try ExerciseFiles.sources(exercise, .shipped))
        let shippedReport = shipped.results.map(\.description).joined(separator: "\n")
        XCTAssertEqual(shipped.results.first?.name, ExerciseRunner.compileCheck, shippedReport)
        XCTAssertEqual(shipped.results.first?.passed, true, "the copy as shipped must compile:\n\(shippedReport)")
        let failing = Set(shipped.failed.map(\.name))
        for name in Self.failingAsShipped[id] ?? [] {
            XCTAssertTrue(failing.contains(name), "as shipped, \"\(name)\" must fail:\n\(shippedReport)")
        }

        let reference = runner.check(exercise, sources: try ExerciseFiles.sources(exercise, .solution))
        let referenceReport = reference.results.map(\.description).joined(separator: "\n")
        XCTAssertTrue(reference.passed, "the reference must pass every check:\n\(referenceReport)")
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
