import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Why each lesson's runs in this process are XCTest (`LessonNNMainThreadTests.swift`): the
/// harness (`VariantRun.perform`) serves the main queue as an app's main thread does, by turning
/// `RunLoop.main` on the calling thread (`MainLoop`). That serves main-queue blocks only on the
/// process's main thread, outside any main-queue block: where XCTest calls each test. Swift
/// Testing's entry point runs as an async `main`, whose main queue is then served by another
/// thread, and it runs a `@MainActor` test as one block on that queue. There the loop serves no
/// other main-queue block, so a variant's results would never come. Should this test fail, Swift
/// Testing gives a test the main thread now, and those files can become Swift Testing. The
/// template lesson, which `workshop new` copies, has none: its tests drive its program, whose
/// main thread is its own (`LessonTemplateCLITests`).
@Suite struct MainQueueFactTests {
    @MainActor @Test("a @MainActor test is off the main thread, and RunLoop.main serves it no main-queue block")
    func theMainLoopServesNothingInSwiftTesting() {
        #expect(!Thread.isMainThread)
        let served = Locked(false)
        DispatchQueue.global().async { DispatchQueue.main.async { served.withLock { $0 = true } } }
        let ran = MainLoop.run(timeout: 0.5) { served.current }
        #expect(!ran, "a main-queue block ran inside a @MainActor Swift Testing test: see this suite's comment")
    }

    @MainActor @Test("what needs no main thread works here: a timer on the main queue ticks, main-actor code runs")
    func aMainQueueTimerTicksBetweenTests() async throws {
        dispatchPrecondition(condition: .onQueue(.main))
        let ticks = Locked(0)
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .milliseconds(10))
        timer.setEventHandler { ticks.withLock { $0 += 1 } }
        timer.resume()
        defer { timer.cancel() }
        // Suspended, the test gives the main queue back: the timer's blocks run meanwhile.
        #expect(await waitUntil { ticks.current >= 3 }, "the main queue's timer did not tick")
    }
}
