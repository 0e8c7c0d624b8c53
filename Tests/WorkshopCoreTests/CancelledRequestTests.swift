import Foundation
import Testing
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Item 3 of the cancellation audit: `URLSession.answer(for:)` created and resumed its data
/// task before it looked at cancellation, so 12-50 of 50 calls made in already-cancelled tasks
/// reached the server. Cancellation is checked first now: none does.
@Suite("Requests from cancelled tasks")
struct CancelledRequestTests {
    @Test func aTaskCancelledBeforeItAsksSendsNothing() async throws {
        let server = FixtureServer(knobs: ServerKnobs(latencySeconds: 0.05))
        let base = try server.start()
        defer { server.stop() }
        let session = HTTPFetcher(timeout: 10).session
        defer { session.invalidateAndCancel() }
        let request = URLRequest(url: base.appendingPathComponent("timeline"))
        let answers = await withTaskGroup(of: URLAnswer.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it asks
                    return await session.answer(for: request)
                }
            }
            var answers: [URLAnswer] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.allSatisfy { $0.error is CancellationError })
        // A request resumed anyway would reach the server within its 0.05 s latency.
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.stats.requestsByPath["/timeline", default: 0] == 0)
    }
}
