import WorkshopCore
import WorkshopServer

/// The no-thread variant: the three APIs one after another on the main thread, each
/// downloaded (the main thread waits) and then parsed on main, first without compression,
/// then with gzip. The Screen cannot draw a frame until the last one is done.
public enum NoThreadFetch {
    /// Runs on the main thread and returns when all six are shown, or at the first failure.
    @MainActor
    public static func run(_ controller: ResultsController, endpoint: FixtureEndpoint) {
        for encoding in Encoding.allCases {
            let roundStart = monotonicSeconds()
            for api in XMLAPIs.all {
                // The user's Cancel waits in the main queue while main is blocked: it is seen
                // here, between two downloads, before the next request.
                guard !controller.isCancelled else { return }
                let download = controller.trace.measure("fetch \(api.name)") {
                    Result { () throws(FetchError) in
                        try TimedDownload.fetchBlocking(
                            endpoint.url(api.path), encoding: encoding, timeout: endpoint.timeoutSeconds)
                    }
                }
                let outcome = controller.trace.measure("parse \(api.name)") {
                    APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
                }
                guard !controller.isCancelled else { return }  // before the show
                controller.show(outcome)
                if controller.failure != nil { return }  // nothing left to compare: stop here
            }
        }
    }
}
