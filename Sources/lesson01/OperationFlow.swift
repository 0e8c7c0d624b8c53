import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WorkshopCore

/// The threaded variant: the whole job as a graph of operations on one `OperationQueue`.
///
///     login ──> parse token ──┬──> get-user ──> parse user
///                             ├──> item 1 ──> parse item 1
///                             └──> item 2 ──> parse item 2 ...
///     welcome (data: URL) ──> parse note
///
/// The queue runs at most `width` operations at once; dependencies decide the order; the
/// main thread only receives results (`onFinish` -> `DispatchQueue.main.async`).
final class OperationFlow: Sendable {
    let queue: OperationQueue
    let gauge = ConcurrencyGauge()
    let session: URLSession

    init(width: Int, session: URLSession) {
        queue = OperationQueue()
        queue.name = "fetch-queue"
        queue.maxConcurrentOperationCount = width  // the article's "並列度"
        self.session = session
    }

    /// Called on the main queue; returns at once. Results arrive later, on main.
    func start(_ plan: AccountPlan, controller: AccountController) {
        requireMainQueue()
        controller.showLoggingIn()

        let login = fetch("login") { plan.loginRequest() }
        let token = parse(login, "token", label: "login", controller, AccountParsing.token) { token in
            TableRow(text: "logged in as \(plan.user)", detail: "login")
        }
        let user = fetch("get-user") { try plan.userRequest(token: Self.value(of: token)) }
        user.addDependency(token)  // get-user needs the token: it starts only after the parse
        let profile = parse(user, "profile", label: "user", controller, AccountParsing.profile) { profile in
            TableRow(text: "\(profile.displayName): \(profile.followers) followers, \(profile.posts) posts", detail: "user")
        }
        let welcome = fetch("welcome", json: false) { URLRequest(url: AccountPlan.welcomeURL) }
        let note = parse(welcome, "note", label: "welcome", controller, AccountParsing.text) { text in
            TableRow(text: text, detail: "welcome")
        }
        var operations: [Operation] = [login, token, user, profile, welcome, note]
        for id in plan.itemIDs {
            let item = fetch(AccountPlan.itemLabel(id)) { try plan.itemRequest(id: id, token: Self.value(of: token)) }
            item.addDependency(token)
            if id == plan.slowItem {
                item.queuePriority = .veryHigh  // start it first, so the user's tap finds it in flight
                controller.onCancelTap = { item.cancel() }
            }
            let parsed = parse(item, "parse \(id)", label: AccountPlan.itemLabel(id), controller, AccountParsing.item) { item in
                TableRow(text: item.title, detail: AccountPlan.itemLabel(item.id))
            }
            operations += [item, parsed]
        }
        queue.addOperations(operations, waitUntilFinished: false)
    }

    /// A fetch named `name`; API answers must be JSON (`JSONFetchOperation`), the note is text.
    private func fetch(_ name: String, json: Bool = true, _ makeRequest: @escaping @Sendable () throws -> URLRequest) -> FetchOperation {
        let operation = json ? JSONFetchOperation(session: session, makeRequest: makeRequest)
                             : FetchOperation(session: session, makeRequest: makeRequest)
        operation.name = name
        operation.gauge = gauge
        return operation
    }

    /// A ParseOperation whose result is shown on the main thread as `label`'s row.
    private func parse<Value: Sendable>(_ source: FetchOperation, _ name: String, label: String, _ controller: AccountController,
                                        _ parse: @escaping @Sendable (FetchedBody) throws -> Value,
                                        describe: @escaping @Sendable (Value) -> TableRow) -> ParseOperation<Value> {
        let operation = ParseOperation(parsing: source, name: name, parse: parse)
        operation.onFinish = { result in
            // On a queue thread: hop to main, where the Screen lives.
            DispatchQueue.main.async { controller.show(label, result, describe: describe) }
        }
        return operation
    }

    /// The parsed value of a dependency, or its failure passed on.
    static func value<Value>(of step: ParseOperation<Value>) throws(FetchFailure) -> Value {
        switch step.result {
        case .success(let value)?: return value
        case .failure(let failure)?: throw failure == .cancelled ? .cancelled : .dependencyFailed("\(step.name ?? "step"): \(failure)")
        case nil: throw .dependencyFailed("\(step.name ?? "step") had not run")
        }
    }
}
