import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WorkshopCore

/// The no-thread variant: the same steps, one after another, each waiting on the main thread
/// (the article's synchronous NSURLConnection, which it rejected for exactly this reason).
enum BlockingFlow {
    /// Runs on the main queue and returns when every step is done.
    static func run(_ plan: AccountPlan, controller: AccountController, session: URLSession) {
        requireMainQueue()
        controller.showLoggingIn()
        // The user's tap is queued like in the threaded variant, but the main thread is busy
        // here until the very end: by the time it is handled, the slow item is long in.
        if plan.slowItem != nil { controller.onCancelTap = {} }

        let token = fetch(plan.loginRequest(), session).flatMap { parse($0, AccountParsing.token) }
        controller.show("login", token) { _ in TableRow(text: "logged in as \(plan.user)", detail: "login") }

        let profile = token.mapError(passOn("token")).flatMap { token in
            fetch(plan.userRequest(token: token), session).flatMap { parse($0, AccountParsing.profile) }
        }
        controller.show("user", profile) { profile in
            TableRow(text: "\(profile.displayName): \(profile.followers) followers, \(profile.posts) posts", detail: "user")
        }
        let note = fetch(URLRequest(url: AccountPlan.welcomeURL), session).flatMap { parse($0, AccountParsing.text) }
        controller.show("welcome", note) { TableRow(text: $0, detail: "welcome") }

        for id in plan.itemIDs {
            let item = token.mapError(passOn("token")).flatMap { token in
                fetch(plan.itemRequest(id: id, token: token), session).flatMap { parse($0, AccountParsing.item) }
            }
            controller.show(AccountPlan.itemLabel(id), item) { TableRow(text: $0.title, detail: AccountPlan.itemLabel($0.id)) }
        }
    }

    private static func passOn(_ step: String) -> (FetchFailure) -> FetchFailure {
        { failure in .dependencyFailed("\(step): \(failure)") }
    }

    private static func parse<Value>(_ body: FetchedBody, _ parse: (FetchedBody) throws -> Value) -> Result<Value, FetchFailure> {
        do { return .success(try parse(body)) } catch { return .failure(.unparseable("\(error)")) }
    }

    /// Sends the request and waits for the answer on this thread, the same way a synchronous
    /// call would. Uses the same `FetchedBody.interpret` as FetchOperation.
    static func fetch(_ request: URLRequest, _ session: URLSession, timeout: Double = 30) -> Result<FetchedBody, FetchFailure> {
        let outcome = Locked<Result<FetchedBody, FetchFailure>?>(nil)  // written on a URLSession thread
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            outcome.withLock { $0 = FetchedBody.interpret(url: request.url, data: data, response: response, error: error) }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout) == .success, let result = outcome.current else {
            return .failure(.transport(code: NSURLErrorTimedOut, message: "no answer within \(timeout) s", url: request.url?.absoluteString ?? "?"))
        }
        return result
    }
}
