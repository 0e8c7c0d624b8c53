import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson05` binary for what is lesson 05's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson05`).
final class Lesson05CLITests: XCTestCase {
    /// One query per order, then one for them all; one download, a relaunch from the cache, a
    /// next-day relaunch revalidated (304): in every variant.
    func testEveryVariantQueriesOnceAndRelaunchesFromTheCache() throws {
        let document = try LessonBinary("lesson05").report([
            "--orders", "200", "--products", "300", "--latency", "0.02",
        ])
        for name in document.variantNames {
            let metrics = document.metrics(name)
            XCTAssertEqual(metrics[.naiveQueries] as? Int, 200, name)
            XCTAssertEqual(metrics[.cachedQueries] as? Int, 1, name)
            XCTAssertEqual(metrics[.firstLaunchRequests] as? Int, 1, name)
            XCTAssertEqual(metrics[.secondLaunchRequests] as? Int, 0, name)
            XCTAssertEqual(metrics[.nextDayLaunchSource] as? String, "304", name)
            XCTAssertEqual(metrics[.fullDownloadsAfterFirstLaunch] as? Int, 0, name)
        }
    }

    func testMaxAgeZeroMakesTheSecondLaunchRevalidate() throws {
        let document = try LessonBinary("lesson05").report([
            "--variant", "threaded", "--orders", "50", "--products", "100", "--latency", "0", "--max-age", "0",
        ])
        XCTAssertEqual(document.variantNames.count, 1)
        let metrics = document.metrics("threaded")
        XCTAssertEqual(metrics[.secondLaunchSource] as? String, "304")
        XCTAssertEqual(metrics[.secondLaunchRequests] as? Int, 1)
    }
}
