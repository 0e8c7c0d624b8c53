import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson04` binary for what is lesson 04's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson04`).
@Suite struct Lesson04CLITests {
    /// 60 friends + 90 statuses + 90 items: one round's records with the default counts.
    static let recordsPerRound = 240

    @Test("the three APIs, gzip well under a third of the identity bytes, every record parsed twice")
    func gzipShrinksTheWireBytesAndEveryRecordIsParsed() throws {
        let document = try LessonBinary("lesson04").report(["--latency", "0.02", "--bandwidth", "0"])
        #expect(document.parameters[.apis] as? String == "friends,statuses,catalog")
        for name in document.variantNames {
            let metrics = document.metrics(name)
            #expect(try #require(metrics[.gzipWireRatio] as? Double, "\(name)") < 0.3, "\(name)")
            #expect(metrics[.recordsParsed] as? Int == 2 * Self.recordsPerRound, "\(name)")
        }
    }
}
