// What exercise 05a's file codes against: the image client the app gives the cache. Compiled
// with your file, the checks and the driver (and seen by your editor through
// ../compile_flags.txt).
import ExerciseChecks
import Foundation
import Lesson05Kit
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// Exercise 05a's network: one GET to the check's own fixture server, with If-None-Match when
/// asked, through `URLSession.answer(for:)`. It keeps nothing: what to keep is the cache's job.
public struct ImageClient: Sendable {
    /// What the server answered: a 200 with the image, or a 304 with no body.
    public struct Response: Sendable {
        /// A 304 Not Modified: the copy whose ETag was sent is still good. The body is empty.
        public var notModified: Bool
        /// The server's validator, to send back as If-None-Match next time.
        public var etag: String?
        /// From `Cache-Control: max-age=N`: seconds the answer may be used with no request.
        public var maxAgeSeconds: Int?
        public var body: Data
    }

    let session: URLSession
    let timeout: Double

    init(timeout: Double) {
        let configuration = URLSessionConfiguration.ephemeral
        // No URL cache: the cache is the learner's, and URLSession must pass a 304 through as it is.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 32
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    /// Sends one GET for `url` (with `If-None-Match: etag` when `etag` is given) and waits for the
    /// answer. Throws for anything but a 200 or a 304: an error status, a timeout, a broken link.
    public func get(_ url: URL, ifNoneMatch etag: String? = nil) async throws -> Response {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let answer = await session.answer(for: request)
        if let error = answer.error {
            if error is CancellationError { throw error }
            throw FetchError(urlSessionError: error, url: url.absoluteString, timeout: timeout)
        }
        guard let http = answer.response as? HTTPURLResponse else { throw FetchError.notHTTP(url: url.absoluteString) }
        guard http.statusCode == 200 || http.statusCode == 304 else {
            throw FetchError.httpStatus(http.statusCode, url: url.absoluteString)
        }
        let cacheControl = http.value(forHTTPHeaderField: "Cache-Control")?.lowercased() ?? ""
        return Response(
            notModified: http.statusCode == 304, etag: http.value(forHTTPHeaderField: "ETag"),
            maxAgeSeconds: RevalidatingFetcher.maxAge(cacheControl), body: answer.data ?? Data())
    }

    func invalidate() { session.finishTasksAndInvalidate() }
}
