import ExerciseChecks
import Foundation
import XCTest

/// The async exercises beyond the two-way proof: a check catches the mistake it is named after
/// and passes what it is not about, and a fix other than the reference's passes. Each file
/// here is checked the way `workshop check` checks a learner's file.
final class AsyncExerciseTests: XCTestCase {
    /// Which checks passed, by name; the file must compile.
    func check(_ id: String, _ text: String) -> [String: Bool] {
        let exercise = ExerciseFiles.exercise(id)
        let report = ExerciseRunner().check(exercise, sources: ExerciseFiles.sources(exercise, text: text))
        XCTAssertEqual(report.results.first?.passed, true, report.results.map(\.description).joined(separator: "\n"))
        return Dictionary(report.results.map { ($0.name, $0.passed) }) { first, _ in first }
    }

    /// The copy as shipped or the reference of `id`, with `old` replaced by `new`.
    func changed(_ id: String, _ kind: ExerciseFiles.Kind, _ old: String, _ new: String) throws -> String {
        let text = try ExerciseFiles.text(ExerciseFiles.exercise(id), kind)
        XCTAssertTrue(text.contains(old), "the \(kind) file of \(id) changed shape: no \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

    // MARK: - 03a

    /// Every task added at once: fast, but more than `width` in flight.
    func testAGroupWithoutAWidthIsCaught() throws {
        let unbounded = try changed(
            "03a", .solution, "if row >= width, let done = await group.next() {",
            "if false, let done = await group.next() {")
        let passed = check("03a", unbounded)
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
        let passed = check("03a", byArrival)
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
        XCTAssertEqual(Set(check("03a", hopping).values), [true])
    }

    // MARK: - 01a

    /// Child tasks, but the cancel swallowed: the caller cannot tell a cancel from "nothing".
    func testASwallowedCancelIsCaught() throws {
        let swallowed = try changed(
            "01a", .solution, "let account = try await (user: user, items: items)",
            "guard let account = try? await (user: user, items: items) else { return }")
        let passed = check("01a", swallowed)
        XCTAssertEqual(passed["a cancel stops the requests in flight"], true)
        XCTAssertEqual(passed["a cancel ends the call promptly"], true)
        XCTAssertEqual(passed["nothing is shown after a cancel"], true)
        XCTAssertEqual(passed["the cancel reaches the caller as CancellationError"], false)
        XCTAssertEqual(passed["a failed request is thrown, not shown"], false)
    }

    /// Another fix: a throwing task group of two instead of `async let`.
    func testATaskGroupPassesToo() throws {
        let group = try changed(
            "01a", .solution,
            """
                    async let user = service.user(token: token)
                    async let items = service.items(token: token)
                    let account = try await (user: user, items: items)
            """,
            """
                    var account = (user: "", items: [String]())
                    try await withThrowingTaskGroup(of: (String?, [String]?).self) { group in
                        group.addTask { (try await service.user(token: token), nil) }
                        group.addTask { (nil, try await service.items(token: token)) }
                        for try await answer in group {
                            if let user = answer.0 { account.user = user }
                            if let items = answer.1 { account.items = items }
                        }
                    }
            """)
        XCTAssertEqual(Set(check("01a", group).values), [true])
    }

    // MARK: - 06a

    /// BEGIN and COMMIT written by hand, with no ROLLBACK on an error: the failed batch is not
    /// seen, but the transaction stays open and the next save fails.
    func testATransactionLeftOpenAfterAnErrorIsCaught() throws {
        let noRollback = try changed(
            "06a", .solution,
            """
                    try database.transaction {
                        // The values travel beside the SQL, never inside it: a quote is just a character.
                        let insert = try database.prepare("insert into flags (id, message) values (?, ?)")
                        for flag in flags {
                            try insert.run([.integer(Int64(flag.id)), .text(flag.message)])
                        }
                    }
            """,
            """
                    try database.execute("BEGIN")
                    let insert = try database.prepare("insert into flags (id, message) values (?, ?)")
                    for flag in flags {
                        try insert.run([.integer(Int64(flag.id)), .text(flag.message)])
                    }
                    try database.execute("COMMIT")
            """)
        let passed = check("06a", noRollback)
        XCTAssertEqual(passed["a reader never sees half a batch"], true)
        XCTAssertEqual(passed["a batch with a duplicate id is an error and saves none of its rows"], true)
        XCTAssertEqual(passed["the writer keeps working after a failed batch"], false)
    }

    // MARK: - R2

    /// Checking again after the `await`: no overwrite, but every caller still fetches.
    func testARecheckAfterTheAwaitStopsTheOverwriteOnly() throws {
        let recheck = try changed(
            "R2", .shipped, "        avatars[name] = avatar\n",
            "        if let first = avatars[name] { return first }\n        avatars[name] = avatar\n")
        let passed = check("R2", recheck)
        XCTAssertEqual(passed["everyone asking for a name gets the same avatar"], true)
        XCTAssertEqual(passed["each avatar is fetched once, however many ask at once"], false)
    }

    /// The in-flight tasks kept even when they fail: the failure is served forever.
    func testAFailedFetchKeptInTheCacheIsCaught() throws {
        let keepsFailures = try changed("R2", .solution, "            avatars[name] = nil\n", "")
        let passed = check("R2", keepsFailures)
        XCTAssertEqual(passed["each avatar is fetched once, however many ask at once"], true)
        XCTAssertEqual(passed["a failed fetch is not kept: the next ask fetches again"], false)
    }
}
