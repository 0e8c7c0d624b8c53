import Foundation
import WorkshopCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The threaded variant: the whole job as a graph of operations on one `OperationQueue`.
///
///     login ──> parse token ──┬──> get-user ──> parse user
///                             ├──> item 1 ──> parse item 1
///                             └──> item 2 ──> parse item 2 ...
///     welcome (data: URL) ──> parse note
///
/// The queue runs at most `width` operations at once; dependencies decide the order; the
/// main thread only receives results (`onFinish` -> `DispatchQueue.main.async`).
///
/// A cancel (the user's, or the run's end) cancels every operation, and the main thread shows
/// nothing that arrives after it. Two things make that safe on Linux:
/// - every queued operation is kept alive here until the queue is empty. Corelibs Foundation
///   holds an operation's dependants without retaining them: a cancelled ParseOperation can
///   finish and be freed before the FetchOperation it depends on, whose own finish then walks
///   the freed object (SIGSEGV in `Operation.observeValue`, seen after `cancelAllOperations()`;
///   Lessons/linux-notes.md). On Apple platforms the queue keeps them alive itself.
/// - the show on main checks the controller after the hop: a result that reached the main
///   queue just before the cancel is dropped there, so the cancel is atomic for the user.
public final class ThreadedAccount: Sendable {
    let queue: OperationQueue
    let gauge = ConcurrencyGauge()
    let session: URLSession
    /// Every operation queued, kept until the queue has let go of all of them (see above).
    /// A lock: `start` and the check for an empty queue run on main, but nothing forbids others.
    private let kept = Locked<[Operation]>([])
    /// Set first by `cancel()`, before the queue's own cancel: `cancelAllOperations()` marks the
    /// operations one by one, and meanwhile the queue may start one it has not reached yet. A
    /// fetch reads this flag before it builds its request, so none starts after `cancel()`.
    private let cancelToken = CancelToken()

    public init(width: Int, session: URLSession) {
        queue = OperationQueue()
        queue.name = "fetch-queue"
        queue.maxConcurrentOperationCount = width  // the article's "並列度"
        self.session = session
    }

    /// Called on the main thread; returns at once. Results arrive later, on main.
    @MainActor
    public func start(_ plan: AccountPlan, controller: AccountController) {
        controller.showLoading(localized("logging in..."))

        let login = fetch("login") { plan.loginRequest() }
        let token = parse(login, "token", label: "login", controller, AccountParsing.token) { _ in
            AccountParsing.loginRow(user: plan.user)
        }
        let user = fetch("get-user") { try plan.userRequest(token: Self.value(of: token)) }
        user.addDependency(token)  // get-user needs the token: it starts only after the parse
        let profile = parse(user, "profile", label: "user", controller, AccountParsing.profile, AccountParsing.userRow)
        let welcome = fetch("welcome", json: false) { plan.welcomeRequest() }
        let note = parse(welcome, "note", label: "welcome", controller, AccountParsing.text, AccountParsing.welcomeRow)
        var operations: [Operation] = [login, token, user, profile, welcome, note]
        var fetches = [login, user, welcome]
        for id in plan.itemIDs {
            let label = AccountPlan.itemLabel(id)
            let item = fetch(label) { try plan.itemRequest(id: id, token: Self.value(of: token)) }
            item.addDependency(token)
            if id == plan.slowItem {
                item.queuePriority = .veryHigh  // start it first, so the user's tap finds it in flight
                controller.onCancelTap = { item.cancel() }
            }
            let parsed = parse(
                item, "parse \(id)", label: label, controller, AccountParsing.item, AccountParsing.itemRow)
            operations += [item, parsed]
            fetches.append(item)
        }
        // Once a step has failed the run has failed: cancel every fetch still waiting or in flight.
        // (A step whose token never came fails with the token's failure anyway, without a request.)
        controller.onFailure = { [fetches] in for fetch in fetches { fetch.cancel() } }
        // The user's cancel, or the end of the run: every operation, queued or running.
        controller.onCancel { [self] in cancel() }
        // Work is running while any operation is; then the operations may go.
        controller.workInFlight = { [self] in
            guard queue.operationCount == 0 else { return true }
            kept.withLock { $0.removeAll() }
            return false
        }
        kept.withLock { $0 = operations }
        queue.addOperations(operations, waitUntilFinished: false)
    }

    /// Cancels whatever is still queued or running (a run that gave up, or the user's cancel).
    public func cancel() {
        cancelToken.cancel()  // first: from now on no fetch builds a request
        queue.cancelAllOperations()
    }

    /// A fetch named `name`; API answers must be JSON (`JSONFetchOperation`), the note is text.
    private func fetch(
        _ name: String, json: Bool = true, _ makeRequest: @escaping @Sendable () throws -> URLRequest
    ) -> FetchOperation {
        // Before the request: a fetch that starts after the cancel sends nothing (it fails, and a
        // failure after a cancel is dropped).
        let checked: @Sendable () throws -> URLRequest = { [cancelToken] in
            guard !cancelToken.isCancelled else { throw FetchError.cancelled(url: "(not sent: cancelled)") }
            return try makeRequest()
        }
        let operation =
            json
            ? JSONFetchOperation(session: session, makeRequest: checked)
            : FetchOperation(session: session, makeRequest: checked)
        operation.name = name
        operation.gauge = gauge
        return operation
    }

    /// A ParseOperation whose result is shown on the main thread as `label`'s row.
    private func parse<Value: Sendable>(
        _ source: FetchOperation, _ name: String, label: String, _ controller: AccountController,
        _ parse: @escaping @Sendable (FetchedBody) throws -> Value,
        _ describe: @escaping @Sendable (Value) -> TableRow
    ) -> ParseOperation<Value> {
        let trace = controller.trace
        let operation = ParseOperation(parsing: source, name: name) { body in
            try trace.measure(AccountParsing.parseSpan(label), lane: "fetch-queue") { try parse(body) }
        }
        operation.onFinish = { result in
            // On a queue thread: hop to main, where the Screen lives.
            DispatchQueue.main.async {
                // Checked on main, where the cancel is handled: a result that arrives after it is
                // dropped, however far it got before.
                guard !controller.isCancelled else { return }
                trace.measure("show", lane: "main") { controller.show(label, result, describe: describe) }
            }
        }
        return operation
    }

    /// The parsed value of a dependency, or its failure passed on: a get-user whose login
    /// failed fails with the login's failure, and sends nothing.
    public static func value<Value>(of step: ParseOperation<Value>) throws(FetchError) -> Value {
        switch step.result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .cancelled(url: "\(step.name ?? "a step") had not run")
        }
    }
}

/// Counts operations executing at once and remembers the most seen, from any thread.
public final class ConcurrencyGauge: Sendable {
    private struct Counts { var now = 0, most = 0 }
    private let counts = Locked(Counts())  // a lock: enter/leave come from many threads
    public init() {}
    func enter() {
        counts.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { counts.withLock { $0.now -= 1 } }
    public var most: Int { counts.current.most }
    public var now: Int { counts.current.now }
}
