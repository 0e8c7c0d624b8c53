import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson03` binary for what is lesson 03's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson03`).
final class Lesson03CLITests: XCTestCase {
    /// 4 rows fit on the 8-row screen: the default scrolls move nothing, so no icon twice.
    func testRowsThatFitFetchEachIconOnce() throws {
        let document = try LessonBinary("lesson03").report(["--rows", "4", "--latency", "0.02"])
        XCTAssertEqual(document.counts(.requestsServed), [5, 5, 5])
    }

    func testWithAnotherServerTheBannerDoesNotClaimOurDefaults() throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try LessonBinary("lesson03").run([
            "--server", server.endpoint.baseURL.absoluteString, "--rows", "2",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("that server's own latency and bandwidth"), outcome.stdout)
        XCTAssertFalse(outcome.stdout.contains("0.15 s"), outcome.stdout)
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03CLISlowTests: XCTestCase {
    func testScrollingWithAndWithoutTheCache() throws {
        // 12 rows, 4 on the screen, down a screenful and back: the cache saves the 4 rows that come back.
        let arguments = ["--rows", "12", "--visible-rows", "4", "--scroll", "down 4, up 4", "--latency", "0"]
        let cached = try LessonBinary("lesson03").report(arguments)
        let uncached = try LessonBinary("lesson03").report(arguments + ["--no-cache"])
        XCTAssertEqual(cached.counts(.iconRequests), [8, 8, 8])
        XCTAssertEqual(cached.counts(.iconCacheHits), [4, 4, 4])
        XCTAssertEqual(uncached.counts(.iconRequests), [12, 12, 12])
        XCTAssertEqual(uncached.counts(.requestsServed), [13, 13, 13])
    }
}
