import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson04` binary for what is lesson 04's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson04`).
final class Lesson04CLITests: XCTestCase {
    /// The three APIs, gzip well under a third of the identity bytes, every record parsed twice.
    func testGzipShrinksTheWireBytesAndEveryRecordIsParsed() throws {
        let document = try LessonBinary("lesson04").report(["--latency", "0.02", "--bandwidth", "0"])
        XCTAssertEqual(document.parameters[.apis] as? String, "friends,statuses,catalog")
        for name in document.variantNames {
            let metrics = document.metrics(name)
            XCTAssertLessThan(try XCTUnwrap(metrics[.gzipWireRatio] as? Double), 0.3, name)
            XCTAssertEqual(metrics[.recordsParsed] as? Int, 2 * XMLAPIsCount.records, name)
        }
    }
}

/// 60 friends + 90 statuses + 90 items: one round's records with the default counts.
enum XMLAPIsCount {
    static let records = 240
}
