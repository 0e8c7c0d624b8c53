import WorkshopCore

/// The no-thread variant: the three APIs one after another on the main thread, each
/// downloaded (the main thread waits) and then parsed on main. The Screen cannot draw a
/// frame until the last one is done.
enum NoThreadFetch {
    /// Runs on the main queue and returns when all three are shown.
    static func run(_ controller: ResultsController, encoding: Encoding, endpoint: FixtureEndpoint, timeout: Double) {
        requireMainQueue()
        let roundStart = monotonicSeconds()
        for api in XMLAPIs.all {
            let download = controller.trace.measure("fetch \(api.name)") {
                Result { () throws(FetchError) in
                    try TimedDownload.fetchBlocking(endpoint.url(api.path), encoding: encoding, timeout: timeout)
                }
            }
            let outcome = controller.trace.measure("parse \(api.name)") {
                APIOutcome.parse(download, api: api, encoding: encoding, roundStart: roundStart)
            }
            controller.show(outcome)
        }
    }
}
