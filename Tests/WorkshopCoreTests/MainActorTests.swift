import Foundation
import XCTest

@testable import WorkshopCore
@testable import WorkshopServer

/// The facts the async variants stand on, checked on the real main thread. XCTest, not Swift
/// Testing: XCTest runs each test there and `MainLoop` turns the main run loop; Swift Testing
/// runs no test on the main thread, and RunLoop.main would never run its blocks.
final class MainActorTests: XCTestCase {
    /// A controller that only records what its task saw.
    @MainActor
    final class Probe: LessonController {
        var sawMainThread: [Bool] = []
        var outcome: String?
        override var isFinished: Bool { outcome != nil || failure != nil }
    }

    /// `@MainActor` code in a task runs on the real main thread, served by `MainLoop`, before and
    /// after awaiting work elsewhere, and passes the Screen's own main-queue trap.
    func testMainActorTaskRunsOnTheMainThreadWhileTheMainLoopTurns() {
        MainActor.assumeIsolated {
            let probe = Probe(title: "probe", output: .silent)
            probe.startTask {
                probe.sawMainThread.append(Thread.isMainThread)
                requireMainQueue()
                let sum = await Task.detached { (1...1000).reduce(0, +) }.value
                probe.sawMainThread.append(Thread.isMainThread)
                requireMainQueue()
                probe.outcome = "\(sum)"
            }
            // Nothing has run yet: the task waits for the main loop to turn.
            XCTAssertEqual(probe.sawMainThread, [])
            XCTAssertTrue(MainLoop.run(timeout: 10) { probe.isFinished })
            XCTAssertEqual(probe.sawMainThread, [true, true])
            XCTAssertEqual(probe.outcome, "500500")
        }
    }

    /// Cancelling the task cancels an await on URLSession at once: a request to a server that
    /// never answers ends as `.cancelled` long before its 30 s timeout.
    func testCancellingTheTaskCancelsTheRequestInFlight() throws {
        var knobs = ServerKnobs()
        knobs.fault = .stall
        let server = FixtureServer(knobs: knobs)
        let base = try server.start()
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 30)
        let url = base.appendingPathComponent("timeline")
        MainActor.assumeIsolated {
            let probe = Probe(title: "probe", output: .silent)
            probe.startTask {
                do {
                    _ = try await fetcher.fetch(url)
                    probe.outcome = "finished"
                } catch {
                    probe.outcome = "\(error)"
                }
            }
            // Cancel once the server has the request (the client is then waiting on it). The main
            // loop must turn meanwhile: the task starts on the main thread.
            XCTAssertTrue(MainLoop.run(timeout: 10) { server.stats.requests >= 1 })
            let clock = Stopwatch()
            probe.cancelTask()
            XCTAssertTrue(MainLoop.run(timeout: 10) { probe.isFinished })
            XCTAssertEqual(probe.outcome, FetchError.cancelled(url: url.absoluteString).description)
            // Generous: a cancelled request ends in a moment, a timed-out one after 30 s.
            XCTAssertLessThan(clock.elapsed, 30 / 4)
        }
    }

    /// A no-thread run shows its content only when main is free again, at its very end: the
    /// frame that shows it is drawn within the run, so its first content is never later than
    /// its total (lesson 04 once reported first content 7.125 s beside a total of 7.120 s: the
    /// total was read before the Screen's stop drew that frame).
    func testFirstContentOfARunThatBlocksMainIsNeverLaterThanItsTotal() {
        MainActor.assumeIsolated {
            for _ in 0..<5 {
                let probe = Probe(title: "probe", output: .silent)
                let blocked = 0.05
                let run = VariantRun.perform("no-thread", controller: probe, timeout: 10, details: ()) {
                    // The no-thread way: the work blocks main (as a blocking download would), then shows.
                    Thread.sleep(forTimeInterval: blocked)
                    probe.screen.table.placeholder = "loading..."
                    probe.outcome = "done"
                }
                let total = run.seconds(.totalSeconds) ?? 0
                let first = run.seconds(.firstContentSeconds) ?? .infinity
                XCTAssertNil(run.failure)
                XCTAssertGreaterThanOrEqual(first, blocked, "nothing can be drawn while main is blocked")
                XCTAssertLessThanOrEqual(first, total, "first content \(first) s after the total \(total) s")
            }
        }
    }
}
