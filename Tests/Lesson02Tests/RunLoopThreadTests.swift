import Foundation
import Lesson02Kit
import Testing
import WorkshopCore
import WorkshopServer

/// The run-loop thread on its own: where blocks run, in what order, and how it stops. Every wait
/// is bounded; none needs the main thread.
@Suite struct RunLoopThreadTests {
    @Test func blocksFromTwoThreadsRunOnTheLoopThreadInOrder() {
        let thread = RunLoopThread(name: "test-loop")
        thread.start()
        let seen = Locked<[(producer: Int, index: Int, onThread: Bool)]>([])
        let perProducer = 2_000
        let allRan = DispatchGroup()
        for _ in 0..<2 * perProducer { allRan.enter() }
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
            for index in 0..<perProducer {
                thread.post {
                    let onThread = thread.isCurrent
                    seen.withLock { $0.append((producer, index, onThread)) }
                    allRan.leave()
                }
            }
        }
        #expect(allRan.wait(timeout: .now() + 20) == .success, "not every block ran within 20 s")
        #expect(thread.stop())
        let runs = seen.current
        #expect(runs.count == 2 * perProducer, "none lost")
        #expect(runs.allSatisfy { $0.onThread }, "every block ran on the loop's own thread")
        for producer in 0..<2 {
            #expect(runs.filter { $0.producer == producer }.map(\.index) == Array(0..<perProducer), "FIFO per producer")
        }
        #expect(thread.stats.loopIterations == 1, "the keep-alive loop never had to go round")
    }

    @Test(arguments: LoopStyle.allCases)
    func stopEndsTheThreadAndLaterPostsAreDropped(_ style: LoopStyle) {
        let thread = RunLoopThread(style: style)
        thread.start()
        #expect(!thread.isFinished)
        #expect(thread.stop(timeout: 5), "the thread did not exit")
        #expect(thread.isFinished)
        let ran = Locked(false)
        #expect(!thread.post { ran.withLock { $0 = true } }, "a stopped thread took a block")
        #expect(!ran.current)
        #expect(thread.stop(timeout: 1), "a second stop() returns at once")
    }

    @Test func stoppingMidFetchLeavesNoCallbackBehind() throws {
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
        try #require(firstChunk.wait(timeout: .now() + 10) == .success, "no data arrived")
        #expect(thread.stop(), "the thread did not exit")
        #expect(thread.isFinished)
        let atStop = callbacks.current

        // URLSession keeps going on its own queue; the next event it hands over is refused,
        // which cancels the task. Wait until URLSession has said its very last word.
        #expect(fetch.waitUntilSessionDone(timeout: 10), "URLSession never finished the cancelled fetch")
        #expect(callbacks.current == atStop, "a callback ran after stop()")
        #expect(fetch.droppedEvents >= 1, "at least the completion was dropped")
    }

    @Test func threadCPUClockCountsOnlyThisThread() {
        // Busy work on another thread must not show on this thread's clock.
        let before = threadCPUSeconds()
        let spun = Locked(0.0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let start = threadCPUSeconds()
            var x = 0.0
            while threadCPUSeconds() - start < 0.2 { x += 1 }
            spun.withLock { $0 = x }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the busy work did not end within 10 s")
        #expect(spun.current > 0)
        #expect(threadCPUSeconds() - before < 0.1)
    }
}
