// What exercise 01's file codes against in the checks: the fetch a `ParseStep` depends on, a
// `BodyProducing` (the driver adds the conformance). Compiled with your file, the checks and the
// driver (and seen by your editor through ../compile_flags.txt).
import Dispatch
import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks' fetch: a plain synchronous operation that fetches /api/user with a token.
/// (The lesson's FetchOperation is asynchronous; for the checks a simple one is enough.)
/// The driver makes it conform to the learner's `BodyProducing`.
// @unchecked: `stored` is a Locked; the rest are constants
public final class CheckFetch: Operation, @unchecked Sendable {
    private let fetcher: HTTPFetcher
    private let url: URL
    private let token: String
    private let stored = Locked<Result<Data, any Error>?>(nil)  // written in main(), read by the step
    /// The body to answer without a request, when set.
    private let canned: Data?

    init(fetcher: HTTPFetcher, url: URL, token: String, canned: Data? = nil) {
        self.fetcher = fetcher
        self.url = url
        self.token = token
        self.canned = canned
    }

    /// The fetched bytes, or why there are none; nil until the fetch has run.
    public var body: Result<Data, any Error>? { stored.current }

    public override func main() {
        guard !isCancelled else { return }
        if let canned {
            stored.withLock { $0 = .success(canned) }
            return
        }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let outcome = Locked<Result<Data, any Error>?>(nil)  // written on a URLSession thread
        let done = DispatchSemaphore(value: 0)
        fetcher.session.dataTask(with: request) { data, response, error in
            let result: Result<Data, any Error>
            if let error {
                result = .failure(error)
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                result = .failure(FetchError.httpStatus(http.statusCode, url: self.url.absoluteString))
            } else {
                result = .success(data ?? Data())
            }
            outcome.withLock { $0 = result }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        stored.withLock { $0 = outcome.current ?? .failure(FetchError.timedOut(url: url.absoluteString, seconds: 10)) }
    }
}
