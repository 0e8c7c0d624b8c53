import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 07a's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's passes.
final class Exercise07aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let id = "07a"
    static let estimateCheck = "height(forRow:) answers at once with the estimate"
    static let threadCheck = "no row is measured on the main thread"
    static let orderCheck = "the visible rows are measured first"
    static let exactCheck = "every row gets its exact height, reloaded on main"
    static let cancelCheck = "a cancelled run measures and shows nothing more"

    /// The reference, but a row not measured yet is measured when the table asks for it: the
    /// answer waits for layout, on the main thread.
    func testMeasuringInsideTheAnswerIsCaught() throws {
        let onDemand = try changed(
            Self.id, .solution, "measured[row] ?? table.estimatedHeight",
            "measured[row] ?? table.makeSizingCell().height(forText: table.texts[row])")
        let passed = checked(Self.id, onDemand)
        XCTAssertEqual(passed[Self.estimateCheck], false)
        XCTAssertEqual(passed[Self.threadCheck], true)
        XCTAssertEqual(passed[Self.orderCheck], true)
        XCTAssertEqual(passed[Self.exactCheck], true)
        XCTAssertEqual(passed[Self.cancelCheck], true)
    }

    /// The file as shipped with only the order fixed: the visible rows first, still on main.
    func testVisibleRowsFirstButOnMainIsCaught() throws {
        let onMain = try changed(
            Self.id, .shipped, "        for row in table.texts.indices {\n",
            "        for row in Array(table.visibleRows) + table.texts.indices.filter({ !table.visibleRows.contains($0) }) {\n"
        )
        let passed = checked(Self.id, onMain)
        XCTAssertEqual(passed[Self.threadCheck], false)
        XCTAssertEqual(passed[Self.cancelCheck], false)
        XCTAssertEqual(passed[Self.orderCheck], true)
        XCTAssertEqual(passed[Self.exactCheck], true)
        XCTAssertEqual(passed[Self.estimateCheck], true)
    }

    /// The reference measuring off main, but from row 0 down: the rows on screen wait.
    func testRowOrderIsCaught() throws {
        var inOrder = try changed(
            Self.id, .solution, "table.texts.indices.filter { !table.visibleRows.contains($0) }",
            "Array(table.texts.indices)")
        inOrder = inOrder.replacingOccurrences(of: "return [Array(table.visibleRows)] + rest", with: "return rest")
        let passed = checked(Self.id, inOrder)
        XCTAssertEqual(passed[Self.orderCheck], false)
        XCTAssertEqual(passed[Self.threadCheck], true)
        XCTAssertEqual(passed[Self.exactCheck], true)
        XCTAssertEqual(passed[Self.cancelCheck], true)
    }

    /// Heights handed back to the wrong rows of their batch.
    func testHeightsOnTheWrongRowsAreCaught() throws {
        let shuffled = try changed(
            Self.id, .solution, "zip(batch.rows, batch.heights)", "zip(batch.rows.reversed(), batch.heights)")
        let passed = checked(Self.id, shuffled)
        XCTAssertEqual(passed[Self.exactCheck], false)
        XCTAssertEqual(passed[Self.threadCheck], true)
        XCTAssertEqual(passed[Self.orderCheck], true)
        XCTAssertEqual(passed[Self.cancelCheck], true)
    }

    /// The batch's task never looks at the cancel: it measures the rest of its rows.
    func testMeasuringOnAfterACancelIsCaught() throws {
        let ignores = try changed(Self.id, .solution, "            if Task.isCancelled { return nil }\n", "")
        let passed = checked(Self.id, ignores)
        XCTAssertEqual(passed[Self.cancelCheck], false)
        XCTAssertEqual(passed[Self.threadCheck], true)
        XCTAssertEqual(passed[Self.exactCheck], true)
    }

    /// The main actor does not look at the cancel after the await: a batch that ends just
    /// after it is still reloaded.
    func testReloadingAfterACancelIsCaught() throws {
        let reloads = try changed(
            Self.id, .solution, "guard let batch = next, !Task.isCancelled else { return }",
            "guard let batch = next else { return }")
        let passed = checked(Self.id, reloads)
        XCTAssertEqual(passed[Self.cancelCheck], false)
        XCTAssertEqual(passed[Self.threadCheck], true)
        XCTAssertEqual(passed[Self.exactCheck], true)
    }

    /// Another fix: an actor owns one sizing cell and measures one row per call, off main; the
    /// main actor walks the rows (visible first), awaits each and reloads it.
    func testAnActorMeasuringRowByRowPassesToo() {
        let actorFix = """
            import ExerciseChecks

            actor RowMeasurer {
                private let cell: RowSizingCell
                init(table: HeightsTable) { cell = table.makeSizingCell() }
                func height(forText text: String) -> Double { cell.height(forText: text) }
            }

            @MainActor
            public final class RowHeights {
                private let table: HeightsTable
                private var measured: [Int: Double] = [:]

                public init(table: HeightsTable) { self.table = table }

                public func height(forRow row: Int) -> Double { measured[row] ?? table.estimatedHeight }

                public func measureRows() async {
                    let measurer = RowMeasurer(table: table)
                    let visible = Array(table.visibleRows)
                    for row in visible + table.texts.indices.filter({ !visible.contains($0) }) {
                        guard !Task.isCancelled else { return }
                        let height = await measurer.height(forText: table.texts[row])
                        guard !Task.isCancelled else { return }
                        measured[row] = height
                        table.reloadRows([row])
                    }
                }
            }
            """
        XCTAssertEqual(Set(checked(Self.id, actorFix).values), [true])
    }
}
