import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson01` binary for what is lesson 01's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson01`).
@Suite struct Lesson01CLITests {
    @Test("login, get-user and 3 items in every variant (the welcome note is a data: URL, not a request)")
    func everyVariantSendsTheLoginTheUserAndEachItemOnce() throws {
        let document = try LessonBinary("lesson01").report([
            "--items", "3", "--latency", "0.02", "--slow-latency", "0.5",
        ])
        #expect(document.counts(.requestsServed) == [5, 5, 5])
    }

    @Test func showHangExplainsTheMissingAnnouncement() throws {
        let outcome = try LessonBinary("lesson01").run(["--show-hang"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("isFinished = true, completionBlock ran = false, dependant ran = false"),
            "\(outcome.stdout)")
    }
}
