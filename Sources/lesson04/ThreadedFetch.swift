import Dispatch
import WorkshopCore

/// The threaded variant, as in the article: the three downloads start together, each is
/// parsed off the main thread as soon as its last byte is in, and only the finished result
/// is handed to the main queue. The main thread only adds rows, so it keeps drawing.
final class ThreadedFetch: Sendable {
    /// Concurrent, like the article's NSOperationQueue running NSInvocationOperations:
    /// three documents may be parsed at the same time.
    let parseQueue = DispatchQueue.named("parse-queue", attributes: .concurrent)

    /// Called on the main queue; returns at once. Results arrive later, on main.
    func start(_ controller: ResultsController, encoding: Encoding, endpoint: FixtureEndpoint, timeout: Double) {
        requireMainQueue()
        let roundStart = monotonicSeconds()
        for api in XMLAPIs.all {
            TimedDownload.start(endpoint.url(api.path), encoding: encoding, timeout: timeout) { download in
                // Here we are on a URLSession thread; parsing there would hold up its other callbacks.
                self.parseQueue.async {
                    let outcome = controller.trace.measure("parse \(api.name)") {
                        APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
                    }
                    // The outcome is a value: the copy that crosses to main is nobody else's.
                    DispatchQueue.main.async { controller.show(outcome) }
                }
            }
        }
    }
}
