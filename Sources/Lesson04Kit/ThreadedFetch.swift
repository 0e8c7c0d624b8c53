import Dispatch
import WorkshopCore
import WorkshopServer

/// The threaded variant, as in the article: the three downloads of a round start together,
/// each is parsed off the main thread as soon as its last byte is in, and only the finished
/// result is handed to the main queue. The main thread only adds rows, so it keeps drawing.
/// The gzip round starts when the identity round is in, so the two never share the link.
///
/// A cancel (the user's, or the harness's when a run ends or gives up): every block checks one
/// `CancelToken` before its side effect (a round's requests, a row on main), and the token
/// cancels the downloads in flight. A dispatch group counts what is still queued or running,
/// so the run knows when the last callback has ended.
public struct ThreadedFetch: Sendable {
    /// Concurrent, like the article's NSOperationQueue running NSInvocationOperations:
    /// three documents may be parsed at the same time.
    let parseQueue = DispatchQueue.named("parse-queue", attributes: .concurrent)
    let endpoint: FixtureEndpoint
    let token = CancelToken()
    let work = DispatchGroup()

    public init(endpoint: FixtureEndpoint) {
        self.endpoint = endpoint
    }

    /// Called on the main thread; returns at once. Results arrive later, on main.
    @MainActor
    public func start(_ controller: ResultsController) {
        controller.onCancel { token.cancel() }
        controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
        controller.showLoading()
        startRound(.identity, controller)
    }

    @MainActor
    func startRound(_ encoding: Encoding, _ controller: ResultsController) {
        // Before the requests: a run that was cancelled or gave up starts no new round.
        guard !token.isCancelled else { return }
        let roundStart = monotonicSeconds()
        let trace = controller.trace
        let answers = RoundAnswers()
        let downloads = XMLAPIs.all.map { api in
            work.enter()  // left when the download's callback has handed its work on
            return TimedDownload.start(endpoint.url(api.path), encoding: encoding, timeout: endpoint.timeoutSeconds) {
                download in
                // Here we are on a URLSession thread; parsing there would hold up its other callbacks.
                parseQueue.async(group: work) {
                    guard !token.isCancelled else { return }  // nobody will see it: no parse
                    let outcome = trace.measure("parse \(api.name)") {
                        APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
                    }
                    // The outcome is a value: the copy that crosses to main is nobody else's.
                    DispatchQueue.main.async(group: work) {
                        guard !token.isCancelled else { return }  // before the show: too late is no news
                        let shown = answers.add(outcome) { controller.cancelOutstanding?() }  // once the cause is known
                        guard let shown else { return }  // a failure waits for the rest of its round
                        controller.show(shown)
                        if encoding == .identity, controller.failure == nil, controller.roundFinished(.identity) {
                            startRound(.gzip, controller)
                        }
                    }
                }
                work.leave()
            }
        }
        // A cancel stops the downloads still in flight (their callbacks come, and are dropped).
        token.onCancel { for download in downloads { download.cancel() } }
        // Once an API's failure is certain to be the round's cause, the downloads still running
        // are cancelled rather than awaited (see `RoundAnswers`).
        controller.cancelOutstanding = {
            for download in downloads { download.cancel() }
        }
    }
}
