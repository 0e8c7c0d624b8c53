import Dispatch
import Foundation
import Testing
import XCTest

@testable import WorkshopCore
@testable import WorkshopServer

// The workshop core's tests that need the real main thread, in one file: XCTest runs each test
// on the main thread, which serves the main queue as a lesson program's main run loop does;
// Swift Testing runs no test there. (The lessons' own in-process runs are in each lesson's
// LessonNNMainThreadTests.swift, for the same reason.)

/// `MainPlace` says "main" exactly where the main actor's executor does. Each place is recorded,
/// then put to the executor's own traps: where `isMain`, `dispatchPrecondition(.onQueue(.main))`
/// and `MainActor.assumeIsolated` must pass; elsewhere `dispatchPrecondition(.notOnQueue(.main))`
/// must. A wrong answer traps the test process (a failure nobody can miss). The settings: XCTest
/// here (the main thread serves the main queue, as in a lesson program's and a check program's
/// main run loop), Swift Testing below (`MainPlaceSwiftTestingTests`), and the programs' own
/// mains in child processes (`MainPlaceSlowTests`, in ExerciseTests).
enum MainPlaceProbe {
    /// Where the caller is, after the executor's traps agreed with it.
    static func confirmed() -> MainPlace {
        let place = MainPlace.here
        if place.isMain {
            dispatchPrecondition(condition: .onQueue(.main))
            MainActor.assumeIsolated {}
        } else {
            dispatchPrecondition(condition: .notOnQueue(.main))
        }
        return place
    }

    @concurrent static func offTheActor() async -> MainPlace { confirmed() }

    actor Holder {
        func place() -> MainPlace { MainPlaceProbe.confirmed() }
    }
}

/// XCTest, not Swift Testing: these need the real main thread serving the main queue (as in a
/// lesson program's main run loop), which XCTest gives each test and Swift Testing gives none.
final class MainPlaceTests: XCTestCase {
    /// The test's own thread: XCTest runs its tests on the main thread, which holds the main queue.
    func testTheMainThreadOfXCTestIsMainByQueueAndThread() {
        XCTAssertEqual(MainPlaceProbe.confirmed(), MainPlace(mainQueue: true, mainThread: true))
    }

    /// A main-actor task, served by the main run loop as a lesson program and a check program
    /// serve it: main by both, before and after awaiting work off the actor; the work itself
    /// and the other ways off it are main by neither.
    func testAMainActorTaskIsMainBeforeAndAfterItsAwaitsAndWorkOffItIsNot() {
        let seen = Locked<[String: MainPlace]>([:])
        let done = Locked(false)
        MainActor.assumeIsolated {
            Task { @MainActor in
                seen.withLock { $0["task, before"] = MainPlaceProbe.confirmed() }
                let concurrent = await MainPlaceProbe.offTheActor()
                seen.withLock { $0["task, after @concurrent"] = MainPlaceProbe.confirmed() }
                let detached = await Task.detached { MainPlaceProbe.confirmed() }.value
                let actor = await MainPlaceProbe.Holder().place()
                let global = await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: MainPlaceProbe.confirmed()) }
                }
                seen.withLock {
                    $0["@concurrent"] = concurrent
                    $0["Task.detached"] = detached
                    $0["an actor"] = actor
                    $0["DispatchQueue.global()"] = global
                }
                done.withLock { $0 = true }
            }
            XCTAssertTrue(MainLoop.run(timeout: 10) { done.current })
        }
        let main = MainPlace(mainQueue: true, mainThread: true)
        let elsewhere = MainPlace(mainQueue: false, mainThread: false)
        XCTAssertEqual(
            seen.current,
            [
                "task, before": main, "task, after @concurrent": main, "@concurrent": elsewhere,
                "Task.detached": elsewhere, "an actor": elsewhere, "DispatchQueue.global()": elsewhere,
            ])
    }

    /// Where queue and thread disagree on the main thread: inside a `sync` onto another queue the
    /// current queue is that queue, but the main thread still holds the main queue (which waits),
    /// and the executor says main. A block of a queue that targets main is main by its queue.
    func testASyncFromMainIsMainByItsThreadAndAQueueTargetingMainByItsQueue() {
        let inSync = DispatchQueue(label: "main-place-sync").sync { MainPlaceProbe.confirmed() }
        XCTAssertEqual(inSync, MainPlace(mainQueue: false, mainThread: true))
        XCTAssertTrue(inSync.isMain, "the executor says main: \(inSync)")

        let targeting = DispatchQueue(label: "main-place-targeting-main", target: .main)
        let seen = Locked<MainPlace?>(nil)
        targeting.async { seen.withLock { $0 = MainPlaceProbe.confirmed() } }
        XCTAssertTrue(MainLoop.run(timeout: 10) { seen.current != nil })
        XCTAssertEqual(seen.current, MainPlace(mainQueue: true, mainThread: true))
    }
}

/// Swift Testing: a `@MainActor` test runs on the main queue, which on Linux may be served by
/// another thread than the main one: there the thread says "no", and the executor (and
/// `isMain`) "main".
@Suite struct MainPlaceSwiftTestingTests {
    @Test @MainActor func theMainActorIsMainByItsQueueWhateverTheThread() async {
        let before = MainPlaceProbe.confirmed()
        let concurrent = await MainPlaceProbe.offTheActor()
        let after = MainPlaceProbe.confirmed()
        #expect(before.mainQueue && before.isMain, "\(before)")
        #expect(after.mainQueue && after.isMain, "\(after)")
        #expect(concurrent == MainPlace(mainQueue: false, mainThread: false))
        // What the thread alone would have said, for the record (the executor decided above).
        print("MainPlace in Swift Testing: before \(before); after an await of @concurrent work \(after)")
    }

    @Test func workOffTheMainActorIsNotMain() async {
        let detached = await Task.detached { MainPlaceProbe.confirmed() }.value
        let actor = await MainPlaceProbe.Holder().place()
        #expect(detached == MainPlace(mainQueue: false, mainThread: false))
        #expect(actor == MainPlace(mainQueue: false, mainThread: false))
    }
}

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
