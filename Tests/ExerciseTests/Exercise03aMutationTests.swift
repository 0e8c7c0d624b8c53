import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 03a's checks beyond the two-way proof: a check catches the mistake it is named
/// after and passes what it is not about, and a fix other than the reference's passes.
final class Exercise03aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    /// Every task added at once: fast, but more than `width` in flight.
    func testAGroupWithoutAWidthIsCaught() throws {
        let unbounded = try changed(
            "03a", .solution, "if row >= width, let done = await group.next() {",
            "if false, let done = await group.next() {")
        let passed = checked("03a", unbounded)
        XCTAssertEqual(passed["fetches `width` icons at once"], true)
        XCTAssertEqual(passed["never more than `width` fetches at once"], false)
        XCTAssertEqual(passed["the same rows as the serial loader"], true)
    }

    /// Icons put on the rows in the order they arrive, not each on its own row.
    func testIconsSetInTheOrderTheyArriveAreCaught() {
        let byArrival = """
            import ExerciseChecks

            public enum IconGroupLoader {
                @MainActor
                public static func loadIcons(
                    named names: [String], width: Int, from source: IconSource, into rows: IconRows
                ) async {
                    await withTaskGroup(of: [UInt8]?.self) { group in
                        var arrived = 0
                        for (row, name) in names.enumerated() {
                            if row >= width, let icon = await group.next() {
                                rows.setIcon(icon, row: arrived)
                                arrived += 1
                            }
                            group.addTask { try? await source.icon(named: name) }
                        }
                        for await icon in group {
                            rows.setIcon(icon, row: arrived)
                            arrived += 1
                        }
                    }
                }
            }
            """
        let passed = checked("03a", byArrival)
        XCTAssertEqual(passed["fetches `width` icons at once"], true)
        XCTAssertEqual(passed["never more than `width` fetches at once"], true)
        XCTAssertEqual(passed["every icon on its own row"], false)
        XCTAssertEqual(passed["the same rows as the serial loader"], false)
    }

    /// Another fix: each child sets its own icon with `await MainActor.run`.
    func testChildrenHoppingToTheMainActorPassToo() {
        let hopping = """
            import ExerciseChecks

            public enum IconGroupLoader {
                @MainActor
                public static func loadIcons(
                    named names: [String], width: Int, from source: IconSource, into rows: IconRows
                ) async {
                    await withTaskGroup(of: Void.self) { group in
                        for (row, name) in names.enumerated() {
                            if row >= width { await group.next() }
                            group.addTask {
                                let icon = try? await source.icon(named: name)
                                await MainActor.run { rows.setIcon(icon, row: row) }
                            }
                        }
                    }
                }
            }
            """
        XCTAssertEqual(Set(checked("03a", hopping).values), [true])
    }
}
