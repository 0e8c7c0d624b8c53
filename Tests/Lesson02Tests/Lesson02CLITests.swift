import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson02` binary for what is lesson 02's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson02`).
final class Lesson02CLITests: XCTestCase {
    /// Every run shows the whole feed; every run with a network thread gets each callback on it.
    func testEveryRunShowsTheFeedAndTheNetworkThreadGetsItsCallbacks() throws {
        let document = try LessonBinary("lesson02").report([
            "--items", "30", "--latency", "0.02", "--bandwidth", "20000",
        ])
        XCTAssertEqual(document.counts(.itemsShown), [30, 30, 30, 30, 30, 30])
        for name in document.variantNames where name != "no-thread" {
            let metrics = document.metrics(name)
            XCTAssertEqual(metrics[.callbacksOffNetworkThread] as? Int, 0, name)
            XCTAssertNotNil(metrics[.networkThreadCPUSeconds], name)
            XCTAssertNotNil(metrics[.loopIterations], name)
        }
    }

    /// `--no-compare` leaves the variant alone; a broken feed says where the XML broke.
    func testABrokenFeedIsAClearError() throws {
        for variant in ["threaded", "async"] {
            let outcome = try LessonBinary("lesson02").run([
                "--fault", "malformed", "--variant", variant, "--no-compare", "--latency", "0", "--bandwidth", "0",
                "--json",
            ])
            XCTAssertEqual(outcome.status, 1, variant)
            XCTAssertEqual(outcome.document?.variantNames, [variant])
            XCTAssertTrue(outcome.stderr.contains("not well-formed XML (line"), "\(variant): \(outcome.stderr)")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson02CLISlowTests: XCTestCase {
    /// Items shown before the feed broke off are never the whole feed (every fault: the
    /// contract suite checks each one's cause).
    func testAFeedThatBreaksOffIsNeverShownWhole() throws {
        for fault in ["500", "drop", "malformed", "corrupt-gzip", "truncated-gzip"] {
            let outcome = try LessonBinary("lesson02").run([
                "--fault", fault, "--no-compare", "--items", "40", "--json",
            ])
            XCTAssertEqual(outcome.status, 1, "\(fault): \(outcome.stderr)")
            for name in ["threaded", "async"] {
                XCTAssertLessThan(outcome.document?.metrics(name)[.itemsShown] as? Int ?? 0, 40, "\(fault), \(name)")
            }
        }
    }
}
