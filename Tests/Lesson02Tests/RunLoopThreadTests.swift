import Foundation
import Lesson02Kit
import WorkshopCore
import WorkshopServer
import XCTest

/// The run-loop thread on its own: where blocks run, in what order, and how it stops.
final class RunLoopThreadTests: XCTestCase {
    func testBlocksFromTwoThreadsRunOnTheLoopThreadInOrder() {
        let thread = RunLoopThread(name: "test-loop")
        thread.start()
        let seen = Locked<[(producer: Int, index: Int, onThread: Bool)]>([])
        let perProducer = 2_000
        let allRan = expectation(description: "every block ran")
        allRan.expectedFulfillmentCount = 2 * perProducer
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
            for index in 0..<perProducer {
                thread.post {
                    let onThread = thread.isCurrent
                    seen.withLock { $0.append((producer, index, onThread)) }
                    allRan.fulfill()
                }
            }
        }
        wait(for: [allRan], timeout: 20)
        XCTAssertTrue(thread.stop())
        let runs = seen.current
        XCTAssertEqual(runs.count, 2 * perProducer, "none lost")
        XCTAssertTrue(runs.allSatisfy(\.onThread), "every block ran on the loop's own thread")
        for producer in 0..<2 {
            XCTAssertEqual(
                runs.filter { $0.producer == producer }.map(\.index), Array(0..<perProducer), "FIFO per producer")
        }
        XCTAssertEqual(thread.stats.loopIterations, 1, "the keep-alive loop never had to go round")
    }

    func testStopEndsTheThreadAndLaterPostsAreDropped() {
        for style in LoopStyle.allCases {
            let thread = RunLoopThread(style: style)
            thread.start()
            XCTAssertFalse(thread.isFinished)
            XCTAssertTrue(thread.stop(timeout: 5), "\(style): the thread did not exit")
            XCTAssertTrue(thread.isFinished, "\(style)")
            let ran = Locked(false)
            XCTAssertFalse(thread.post { ran.withLock { $0 = true } }, "\(style): a stopped thread took a block")
            XCTAssertFalse(ran.current)
            XCTAssertTrue(thread.stop(timeout: 1), "\(style): a second stop() returns at once")
        }
    }

    func testStoppingMidFetchLeavesNoCallbackBehind() throws {
        let server = FixtureServer(knobs: ServerKnobs(latencySeconds: 0, bandwidthBytesPerSecond: 20_000))
        let base = try server.start()
        defer { server.stop() }
        let thread = RunLoopThread()
        thread.start()
        let callbacks = Locked(0)
        let firstChunk = DispatchSemaphore(value: 0)
        let fetch = ThreadFetch(
            url: base.appendingPathComponent("feed.xml"), on: thread,
            callbacks: FetchCallbacks(
                response: { _ in callbacks.withLock { $0 += 1 } },
                data: { _ in
                    if callbacks.withLock({
                        $0 += 1
                        return $0
                    }) == 2 {
                        firstChunk.signal()
                    }
                },
                completion: { _ in callbacks.withLock { $0 += 1 } }))
        fetch.start()
        // The feed takes about 2.5 s at this bandwidth: stop the thread after its first chunk.
        XCTAssertEqual(firstChunk.wait(timeout: .now() + 10), .success, "no data arrived")
        XCTAssertTrue(thread.stop(), "the thread did not exit")
        XCTAssertTrue(thread.isFinished)
        let atStop = callbacks.current

        // URLSession keeps going on its own queue; the next event it hands over is refused,
        // which cancels the task. Wait until URLSession has said its very last word.
        XCTAssertTrue(fetch.waitUntilSessionDone(timeout: 10), "URLSession never finished the cancelled fetch")
        XCTAssertEqual(callbacks.current, atStop, "a callback ran after stop()")
        XCTAssertGreaterThanOrEqual(fetch.droppedEvents, 1, "at least the completion was dropped")
    }

    func testThreadCPUClockCountsOnlyThisThread() {
        // Busy work on another thread must not show on this thread's clock.
        let before = threadCPUSeconds()
        let done = expectation(description: "busy work done")
        DispatchQueue.global().async {
            let start = threadCPUSeconds()
            var x = 0.0
            while threadCPUSeconds() - start < 0.2 { x += 1 }
            XCTAssertGreaterThan(x, 0)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertLessThan(threadCPUSeconds() - before, 0.1)
    }
}
