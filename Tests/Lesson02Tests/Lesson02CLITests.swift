import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson02` binary for what is lesson 02's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson02`).
@Suite struct Lesson02CLITests {
    @Test("every run shows the feed; every run with a network thread gets each callback on it")
    func everyRunShowsTheFeedAndTheNetworkThreadGetsItsCallbacks() throws {
        let document = try LessonBinary("lesson02").report([
            "--items", "30", "--latency", "0.02", "--bandwidth", "20000",
        ])
        #expect(document.counts(.itemsShown) == [30, 30, 30, 30, 30, 30])
        for name in document.variantNames where name != "no-thread" {
            let metrics = document.metrics(name)
            #expect(metrics[.callbacksOffNetworkThread] as? Int == 0, "\(name)")
            #expect(metrics[.networkThreadCPUSeconds] != nil, "\(name)")
            #expect(metrics[.loopIterations] != nil, "\(name)")
        }
    }

    @Test(
        "--no-compare leaves the variant alone; a broken feed says where the XML broke",
        arguments: ["threaded", "async"])
    func aBrokenFeedIsAClearError(_ variant: String) throws {
        let outcome = try LessonBinary("lesson02").run([
            "--fault", "malformed", "--variant", variant, "--no-compare", "--latency", "0", "--bandwidth", "0",
            "--json",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.document?.variantNames == [variant])
        #expect(outcome.stderr.contains("not well-formed XML (line"), "\(outcome.stderr)")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct Lesson02CLISlowTests {
    /// Items shown before the feed broke off are never the whole feed (every fault: the
    /// contract suite checks each one's cause).
    @Test(arguments: ["500", "drop", "malformed", "corrupt-gzip", "truncated-gzip"])
    func aFeedThatBreaksOffIsNeverShownWhole(_ fault: String) throws {
        let outcome = try LessonBinary("lesson02").run(["--fault", fault, "--no-compare", "--items", "40", "--json"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        for name in ["threaded", "async"] {
            #expect(outcome.document?.metrics(name)[.itemsShown] as? Int ?? 0 < 40, "\(name)")
        }
    }
}
