import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// The async variant: the threaded variant's operation graph, written the Swift 6 way.
///
///     welcome (data: URL) ── async let: starts beside the login, awaited after it
///     login ──await──> token ──> task group, `width` children at once:
///                                  item 1 (the slow one, first), get-user, item 2, item 3 ...
///
/// Each Operation dependency became the order of two `await`s; `maxConcurrentOperationCount`
/// became how many children the task group holds at once; `DispatchQueue.main.async` became
/// nothing at all: this class is `@MainActor`, so a result is shown right where it is awaited.
/// While a request is on its way the task is suspended and holds no thread: the main thread
/// goes back to the Screen. Cancelling the run's task (the harness does when the run ends)
/// cancels every child and every request in flight, and nothing is shown after that.
@MainActor
public final class AsyncAccount {
    private let width: Int
    private let session: URLSession
    /// Fetches on their way now, and the most seen at once. No lock: only main-actor code
    /// touches them (each fetch starts and ends on the main actor, only its wait is elsewhere).
    private var inFlight = 0
    public private(set) var mostInFlight = 0
    /// The slow item's own task, kept so the user's tap can cancel that one request; and
    /// whether the tap came before it started.
    private var slowItem: Task<Result<AccountItem, FetchError>, Never>?
    private var tapped = false

    public init(width: Int, session: URLSession) {
        self.width = max(1, width)
        self.session = session
    }

    /// What the task group runs: get-user or one item, both needing the token.
    private enum Job {
        case user
        case item(Int)
    }
    private enum Outcome: Sendable {
        case user(Result<AccountProfile, FetchError>)
        case item(Int, Result<AccountItem, FetchError>)
    }

    /// The whole job, in the order its steps depend on each other. Runs in the controller's task.
    public func run(_ plan: AccountPlan, controller: AccountController) async {
        controller.showLoading(localized("logging in..."))
        if plan.slowItem != nil {
            controller.onCancelTap = { [self] in
                tapped = true
                slowItem?.cancel()  // only this item's task: its request is cancelled in flight
            }
        }
        let loggedIn: Result<String, FetchError>
        let welcome: Result<String, FetchError>
        if width > 1 {
            // The note needs no token: it starts now, beside the login, like the queue's two ready operations.
            async let note = step(plan.welcomeRequest(), "welcome", json: false, controller, AccountParsing.text)
            loggedIn = await step(plan.loginRequest(), "login", controller, AccountParsing.token)
            welcome = await note
        } else {
            // A width of one: one request at a time, as the queue would run them.
            loggedIn = await step(plan.loginRequest(), "login", controller, AccountParsing.token)
            welcome = await step(plan.welcomeRequest(), "welcome", json: false, controller, AccountParsing.text)
        }
        // The run was cancelled (it ended, or gave up): like a cancelled FetchOperation, show nothing.
        if Task.isCancelled { return }
        controller.trace.measure("show", lane: "main") {
            controller.show("login", loggedIn) { _ in AccountParsing.loginRow(user: plan.user) }
            controller.show("welcome", welcome, describe: AccountParsing.welcomeRow)
        }

        var jobs: [Job] = [.user] + plan.itemIDs.map { .item($0) }
        if let slow = plan.slowItem, let index = plan.itemIDs.firstIndex(of: slow) {
            jobs.remove(at: index + 1)
            jobs.insert(.item(slow), at: 0)  // first, so the user's tap finds it in flight
        }
        let token: String
        switch loggedIn {
        case .success(let value): token = value
        case .failure(let error):
            // Every step that needs the token fails with the login's failure, and sends nothing.
            if !Task.isCancelled { for job in jobs { settle(job, error, controller) } }
            return
        }

        await withTaskGroup(of: Outcome.self) { group in
            var waiting = jobs[...]
            // `width` children at once: each one that ends makes room for the next.
            for _ in 0..<width {
                guard let job = waiting.popFirst() else { break }
                group.addTask { await self.perform(job, plan, token: token, controller) }
            }
            while let outcome = await group.next() {
                // Cancelled while this answer was on its way: it is no news (and no row).
                if Task.isCancelled { return group.cancelAll() }
                show(outcome, controller)
                if controller.failure != nil {
                    // The run has failed: cancel the requests in flight, send no more.
                    group.cancelAll()
                    for job in waiting {
                        let url = request(for: job, plan, token: token).url?.absoluteString ?? "?"
                        settle(job, .cancelled(url: url), controller)
                    }
                    waiting.removeAll()
                } else if let job = waiting.popFirst() {
                    group.addTask { await self.perform(job, plan, token: token, controller) }
                }
            }
        }
    }

    /// One child of the task group. The slow item runs as a task of its own, so that the tap
    /// can cancel it alone; cancelling the group (or the run) cancels it too.
    private func perform(_ job: Job, _ plan: AccountPlan, token: String, _ controller: AccountController) async
        -> Outcome
    {
        let request = request(for: job, plan, token: token)
        switch job {
        case .user:
            return .user(await step(request, "get-user", controller, AccountParsing.profile))
        case .item(let id) where id == plan.slowItem:
            if tapped { return .item(id, .failure(.cancelled(url: request.url?.absoluteString ?? "item"))) }
            let task = Task { await step(request, AccountPlan.itemLabel(id), controller, AccountParsing.item) }
            slowItem = task
            return .item(
                id,
                await withTaskCancellationHandler {
                    await task.value
                } onCancel: {
                    task.cancel()
                })
        case .item(let id):
            return .item(id, await step(request, AccountPlan.itemLabel(id), controller, AccountParsing.item))
        }
    }

    /// One request and its parse: the wait is spent suspended (no thread held), the parse runs
    /// off the main actor, in the task pool (`@concurrent`), like a ParseOperation on the queue.
    private func step<Value: Sendable>(
        _ request: URLRequest, _ name: String, json: Bool = true, _ controller: AccountController,
        _ parse: @escaping @Sendable (FetchedBody) throws -> Value
    ) async -> Result<Value, FetchError> {
        inFlight += 1
        mostInFlight = max(mostInFlight, inFlight)
        let body = await controller.trace.measure("fetch \(name)", lane: Trace.awaitingLane) {
            await Self.fetch(request, session: session)
        }
        inFlight -= 1
        return await Self.parse(body, json: json, name: name, trace: controller.trace, parse)
    }

    /// Sends the request and suspends until the answer is in. Cancelling the task cancels the
    /// request, and a cancelled fetch delivers no data. Not `@concurrent`: it only waits, and
    /// waiting holds no thread, so it may as well run on its caller's actor (what a `nonisolated`
    /// async function does with SE-0461's `NonisolatedNonsendingByDefault`, which Package.swift
    /// turns on) and save the hop.
    ///
    /// A task that is cancelled already sends nothing: `URLSession.answer(for:)` (the core's
    /// one safe way to await URLSession on Linux, see HTTPFetcher.swift) checks before it makes
    /// the request. Before, this built and resumed the request first: a cancelled child task
    /// still sent its token to the server.
    private nonisolated static func fetch(_ request: URLRequest, session: URLSession) async -> Result<
        FetchedBody, FetchError
    > {
        let url = request.url?.absoluteString ?? "?"
        let answer = await session.answer(for: request)
        if answer.error is CancellationError || Task.isCancelled { return .failure(.cancelled(url: url)) }
        return FetchedBody.answer(to: request, data: answer.data, response: answer.response, error: answer.error)
    }

    /// `@concurrent`: it runs on the task pool's threads, never on the caller's actor. Here
    /// that matters: `step` runs on the main actor, and with SE-0461's upcoming feature
    /// `NonisolatedNonsendingByDefault` (on in Package.swift, as in an Xcode 26 app project; off
    /// by default in Swift 6.2 and 6.3) a plain `nonisolated` async function runs on its caller's
    /// actor, so without `@concurrent` every parse would run on main (the timeline's "main" lane
    /// shows it: build with this attribute removed and run `--variant async`).
    @concurrent
    private static func parse<Value: Sendable>(
        _ body: Result<FetchedBody, FetchError>, json: Bool, name: String, trace: Trace,
        _ parse: @Sendable (FetchedBody) throws -> Value
    ) async -> Result<Value, FetchError> {
        trace.measure(AccountParsing.parseSpan(name), lane: "task pool") {
            body.flatMap { body in
                Result { () throws(FetchError) in
                    if json { try body.requireJSON() }  // the check JSONFetchOperation makes
                    return body
                }
            }.flatMap { AccountParsing.run(parse, on: $0) }
        }
    }

    /// Shows a result on the Screen: we are on the main actor already, so no hop is needed.
    private func show(_ outcome: Outcome, _ controller: AccountController) {
        controller.trace.measure("show", lane: "main") {
            switch outcome {
            case .user(let profile): controller.show("user", profile, describe: AccountParsing.userRow)
            case .item(let id, let item):
                controller.show(AccountPlan.itemLabel(id), item, describe: AccountParsing.itemRow)
            }
        }
    }

    private func request(for job: Job, _ plan: AccountPlan, token: String) -> URLRequest {
        switch job {
        case .user: plan.userRequest(token: token)
        case .item(let id): plan.itemRequest(id: id, token: token)
        }
    }

    /// Settles a step that was never sent, with `error` (the login's failure, or "cancelled").
    private func settle(_ job: Job, _ error: FetchError, _ controller: AccountController) {
        switch job {
        case .user: show(.user(.failure(error)), controller)
        case .item(let id): show(.item(id, .failure(error)), controller)
        }
    }
}
