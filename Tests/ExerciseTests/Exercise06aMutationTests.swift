import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 06a's checks beyond the two-way proof: a check catches the mistake it is named
/// after and passes what it is not about, and a fix other than the reference's passes.
final class Exercise06aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

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
        let passed = checked("06a", noRollback)
        XCTAssertEqual(passed["a reader never sees half a batch"], true)
        XCTAssertEqual(passed["a batch with a duplicate id is an error and saves none of its rows"], true)
        XCTAssertEqual(passed["the writer keeps working after a failed batch"], false)
    }
}
