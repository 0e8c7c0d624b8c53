import Foundation
import WorkshopCore

/// The no-thread variant: the main thread downloads the whole feed, waiting for its last byte,
/// and only then parses it. The Screen cannot draw a single frame until both are done.
public enum NoThreadFeed {
    /// Runs on the main thread and returns when the feed is shown (or has failed), with the
    /// moment its last byte arrived (a `monotonicSeconds()` stamp; nil when it never did).
    @MainActor
    public static func run(_ url: URL, timeout: Double, controller: FeedController) -> Double? {
        let fetcher = HTTPFetcher(timeout: timeout)
        defer { fetcher.session.invalidateAndCancel() }
        // The user's Cancel waits in the main queue while main is blocked: it is seen only here,
        // before the request, and after the download, before the parse shows anything.
        guard !controller.isCancelled else { return nil }
        let data: Data
        do {
            data = try controller.trace.measure("download feed", lane: "main") { try fetcher.fetchBlocking(url) }
        } catch {
            controller.fail("\(error)")
            return nil
        }
        let downloadEnded = monotonicSeconds()
        guard !controller.isCancelled else { return downloadEnded }
        let parsed = controller.trace.measure("parse feed", lane: "main") {
            FeedParser.parse(data, url: url) { controller.show($0) }
        }
        controller.finish(parsed.map(\.count))
        return downloadEnded
    }
}
