import Dispatch
import WorkshopCore

/// The threaded variant, as in the article: the three downloads of a round start together,
/// each is parsed off the main thread as soon as its last byte is in, and only the finished
/// result is handed to the main queue. The main thread only adds rows, so it keeps drawing.
/// The gzip round starts when the identity round is in, so the two never share the link.
public struct ThreadedFetch: Sendable {
    /// Concurrent, like the article's NSOperationQueue running NSInvocationOperations:
    /// three documents may be parsed at the same time.
    let parseQueue = DispatchQueue.named("parse-queue", attributes: .concurrent)
    let endpoint: FixtureEndpoint

    public init(endpoint: FixtureEndpoint) {
        self.endpoint = endpoint
    }

    /// Called on the main thread; returns at once. Results arrive later, on main.
    @MainActor
    public func start(_ controller: ResultsController) {
        controller.showLoading()
        startRound(.identity, controller)
    }

    @MainActor
    func startRound(_ encoding: Encoding, _ controller: ResultsController) {
        let roundStart = monotonicSeconds()
        let downloads = XMLAPIs.all.map { api in
            TimedDownload.start(endpoint.url(api.path), encoding: encoding, timeout: endpoint.timeoutSeconds) {
                download in
                // Here we are on a URLSession thread; parsing there would hold up its other callbacks.
                parseQueue.async {
                    let outcome = controller.trace.measure("parse \(api.name)") {
                        APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
                    }
                    // The outcome is a value: the copy that crosses to main is nobody else's.
                    DispatchQueue.main.async {
                        controller.show(outcome)
                        if encoding == .identity, controller.failure == nil, controller.roundFinished(.identity) {
                            startRound(.gzip, controller)
                        }
                    }
                }
            }
        }
        // If one API fails, the other two of this round are cancelled rather than awaited.
        controller.cancelOutstanding = {
            for download in downloads { download.cancel() }
        }
    }
}
