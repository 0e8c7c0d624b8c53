import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson05` binary for what is lesson 05's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson05`).
@Suite struct Lesson05CLITests {
    /// One query per order, then one for them all; one download, a relaunch from the cache, a
    /// next-day relaunch revalidated (304): in every variant.
    @Test func everyVariantQueriesOnceAndRelaunchesFromTheCache() throws {
        let document = try LessonBinary("lesson05").report([
            "--orders", "200", "--products", "300", "--latency", "0.02",
        ])
        for name in document.variantNames {
            let metrics = document.metrics(name)
            #expect(metrics[.naiveQueries] as? Int == 200, "\(name)")
            #expect(metrics[.cachedQueries] as? Int == 1, "\(name)")
            #expect(metrics[.firstLaunchRequests] as? Int == 1, "\(name)")
            #expect(metrics[.secondLaunchRequests] as? Int == 0, "\(name)")
            #expect(metrics[.nextDayLaunchSource] as? String == "304", "\(name)")
            #expect(metrics[.fullDownloadsAfterFirstLaunch] as? Int == 0, "\(name)")
        }
    }

    @Test func maxAgeZeroMakesTheSecondLaunchRevalidate() throws {
        let document = try LessonBinary("lesson05").report([
            "--variant", "threaded", "--orders", "50", "--products", "100", "--latency", "0", "--max-age", "0",
        ])
        #expect(document.variantNames.count == 1)
        let metrics = document.metrics("threaded")
        #expect(metrics[.secondLaunchSource] as? String == "304")
        #expect(metrics[.secondLaunchRequests] as? Int == 1)
    }
}
