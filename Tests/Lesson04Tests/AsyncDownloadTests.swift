import Foundation
import Lesson04Kit
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopServer

/// `TimedDownload.download`, the async form the async variant awaits: cancelling the task
/// cancels the request, whether it is in flight or not yet started. Decided on what load cannot
/// fake: the download ends as cancelled, not as timed out (the server stalls it: only the cancel
/// or the request's own 30 s timeout can end it, and each ends it with its own error). No wall
/// clock: the tests of this process share a cooperative thread per core with tests that block
/// theirs for a program's whole run, and in a CI rehearsal this task waited over 60 s for one.
@Suite struct AsyncDownloadTests {
    @Test func cancellingTheTaskCancelsADownloadInFlight() async throws {
        let server = try TestServer()
        defer { server.stop() }
        server.server.setFault(.stall, forPathPrefix: XMLAPIs.catalog.path)
        let url = server.endpoint.url(XMLAPIs.catalog.path)
        let task = Task { await download(url) }
        // Cancel once the server has the request: the client is then waiting for its answer.
        // (A bound for a starved pool, not a claim: the request is sent at once when a thread is free.)
        try #require(
            await waitUntil(timeout: 300) { server.server.stats.requests >= 1 }, "the request never arrived")
        task.cancel()
        let result = await task.value
        // Cancelled, not timed out: the cancel ended the request in flight.
        #expect(result.failureDescription == FetchError.cancelled(url: url.absoluteString).description)
    }

    @Test func aDownloadInACancelledTaskNeverStarts() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let url = server.endpoint.url(XMLAPIs.friends.path)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it asks for anything
            return await download(url)
        }
        let result = await task.value
        #expect(result.failureDescription == FetchError.cancelled(url: url.absoluteString).description)
        #expect(server.server.stats.requests == 0, "a cancelled task sent a request")
    }

    @Test func anUncancelledDownloadIsTheDocument() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let timing = try await download(server.endpoint.url(XMLAPIs.statuses.path)).get()
        #expect(Array(timing.body) == XMLAPIs.statuses.body())
        #expect(timing.contentEncoding == "gzip")
        #expect(timing.responseAt <= timing.dataAt)
    }
}

private let requestTimeout = 30.0

/// The async variant's download, its failure kept as a value.
private func download(_ url: URL) async -> Result<DownloadTiming, FetchError> {
    do throws(FetchError) {
        return .success(try await TimedDownload.download(url, encoding: .gzip, timeout: requestTimeout))
    } catch {
        return .failure(error)
    }
}

extension Result {
    /// The failure in words, or "succeeded".
    fileprivate var failureDescription: String {
        if case .failure(let error) = self { return "\(error)" }
        return "succeeded"
    }
}
