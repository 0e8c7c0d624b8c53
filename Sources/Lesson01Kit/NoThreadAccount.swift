import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The no-thread variant: the same steps, one after another, each waiting on the main thread
/// (the article's synchronous NSURLConnection, which it rejected for exactly this reason).
public enum NoThreadAccount {
    /// Runs on the main thread and returns when every step is done.
    @MainActor
    public static func run(_ plan: AccountPlan, controller: AccountController, session: URLSession) {
        controller.showLoading(localized("logging in..."))
        // The user's tap is queued like in the threaded variant, but the main thread is busy
        // here until the very end: by the time it is handled, the slow item is long in.
        if plan.slowItem != nil { controller.onCancelTap = {} }

        /// One request, waited for here. Once a step has failed, nothing more is sent: the
        /// run's result is decided, so the remaining steps end at once.
        func fetch<Value>(_ request: URLRequest, _ parse: (FetchedBody) throws -> Value) -> Result<Value, FetchError> {
            // A cancel tap waits while main is blocked; it is seen here, before the next request.
            guard controller.failure == nil, !controller.isCancelled else {
                return .failure(.cancelled(url: request.url?.absoluteString ?? "?"))
            }
            // On the trace: the main thread's own lane, busy for the whole wait.
            let name = "fetch " + (request.url?.path ?? "?")
            return controller.trace.measure(name, lane: "main") {
                fetchBlocking(request, session: session).flatMap { AccountParsing.run(parse, on: $0) }
            }
        }

        /// Shows a step, unless the user cancelled meanwhile: the answer in hand is dropped.
        func show<Value>(_ label: String, _ result: Result<Value, FetchError>, _ describe: (Value) -> TableRow) {
            guard !controller.isCancelled else { return }
            controller.show(label, result, describe: describe)
        }

        let token = fetch(plan.loginRequest(), AccountParsing.token)
        show("login", token) { _ in AccountParsing.loginRow(user: plan.user) }
        // A step that needs the token fails with the login's failure, without a request.
        let profile = token.flatMap { fetch(plan.userRequest(token: $0), AccountParsing.profile) }
        show("user", profile, AccountParsing.userRow)
        let note = fetch(plan.welcomeRequest(), AccountParsing.text)
        show("welcome", note, AccountParsing.welcomeRow)
        for id in plan.itemIDs {
            let item = token.flatMap { fetch(plan.itemRequest(id: id, token: $0), AccountParsing.item) }
            show(AccountPlan.itemLabel(id), item, AccountParsing.itemRow)
        }
    }

    /// Sends the request and waits for the answer on this thread, the way a synchronous call
    /// would, with the same `FetchedBody.load` as FetchOperation.
    public static func fetchBlocking(_ request: URLRequest, session: URLSession) -> Result<FetchedBody, FetchError> {
        guard let url = request.url else { return .failure(.badURL("a request without a URL")) }
        return Result { () throws(FetchError) in
            try waitForCallback(url: url, timeout: request.timeoutInterval) { completion in
                FetchedBody.load(request, session: session, completion: completion).resume()
            }
        }
    }
}
