import Dispatch
import Foundation
import Testing
import WorkshopCore
import XCTest

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
