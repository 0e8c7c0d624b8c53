import ExerciseChecks
import Foundation
import WorkshopCore

/// Exercise 01a's account service: login, then the user and their items, each request a fake
/// network call that suspends the calling task for `latency` seconds. It logs when each call
/// starts and how it ends: answered, cancelled (the calling task was cancelled while it
/// waited) or failed.
public struct AccountService: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        case itemsUnavailable
    }

    struct Call: Sendable {
        var name: String
        var started: Double
        var ended: Double?
        var outcome = "in flight"
    }

    let loginLatency: Double
    let latency: Double
    let failItems: Bool
    /// Every call so far. A lock, not an actor: logging must add no suspension point of its
    /// own, and the checks read the log from the main thread while calls run elsewhere.
    let log = Locked<[Call]>([])
    /// When set, the user and the items requests wait here until both have started (at most
    /// `pairTimeout`): code that starts them side by side shows it however slow the machine.
    let pair: AsyncGate?
    /// Called (on the calling task's thread) when the user or the items request has started.
    let onStart: (@Sendable () -> Void)?

    static let pairTimeout = 2.0

    init(
        loginLatency: Double, latency: Double, failItems: Bool = false, waitForPair: Bool = false,
        onStart: (@Sendable () -> Void)? = nil
    ) {
        self.loginLatency = loginLatency
        self.latency = latency
        self.failItems = failItems
        self.pair = waitForPair ? AsyncGate() : nil
        self.onStart = onStart
    }

    /// A session token.
    public func login() async throws -> String {
        try await call("login", loginLatency) { "token-42" }
    }

    /// The user's name.
    public func user(token: String) async throws -> String {
        try await call("user", latency) { "Aiko" }
    }

    /// The user's items.
    public func items(token: String) async throws -> [String] {
        try await call("items", latency) { ["tea", "rice", "fan"] }
    }

    func call<T>(_ name: String, _ seconds: Double, answer: () -> T) async throws -> T {
        let index = log.withLock { calls in
            calls.append(Call(name: name, started: monotonicSeconds()))
            return calls.count - 1
        }
        func end(_ outcome: String) {
            log.withLock {
                $0[index].ended = monotonicSeconds()
                $0[index].outcome = outcome
            }
        }
        do {
            if name != "login" {
                onStart?()
                if let pair {
                    let both = log.withLock { Set($0.map(\.name)).isSuperset(of: ["user", "items"]) }
                    if both { pair.open() }
                    try await pair.wait(timeout: Self.pairTimeout)
                }
            }
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        } catch {
            end("cancelled")
            throw error
        }
        if name == "items" && failItems {
            end("failed")
            throw Failure.itemsUnavailable
        }
        end("answered")
        return answer()
    }

    var calls: [Call] { log.current }

    /// The most calls among `names` in flight at the same moment.
    func peakInFlight(of names: Set<String>) -> Int {
        let calls = self.calls.filter { names.contains($0.name) }
        return calls.map { call in
            calls.filter { $0.started <= call.started && ($0.ended ?? .infinity) > call.started }.count
        }.max() ?? 0
    }
}

/// Exercise 01a's screen: it belongs to the main actor, and records what it was asked to show.
@MainActor
public final class AccountScreen {
    struct Shown {
        var user: String
        var items: [String]
        var at: Double
    }

    var shown: [Shown] = []

    public init() {}

    /// Shows the account.
    public func show(user: String, items: [String]) {
        shown.append(Shown(user: user, items: items, at: monotonicSeconds()))
    }
}

/// The checks of exercise 01a (Exercises/01a-cancel-login): login -> user + items as child
/// tasks, so that cancelling the caller's task stops every request in flight and shows nothing.
public enum Exercise01aChecks {
    public typealias ShowAccount = @MainActor @Sendable (AccountService, AccountScreen) async throws -> Void

    /// The user and items requests of the cancel run. The cancel comes the moment one of them
    /// has started (no stopwatch decides "mid-flight"); a call that does not pass it on waits
    /// for this before it gets its answer.
    public static let latency = 0.3
    /// How long one call may take, and its requests after it: three calls stay well inside the
    /// 20 s a check program may run, so a call that never ends gets these checks' words.
    static let callSeconds = 4.0
    static let settleSeconds = 2.0

    struct Run {
        var service: AccountService
        var screen: AccountScreen
        var ended = false
        var error: (any Error)?
        var cancelledAt: Double?
        var endedAt: Double?
        var callsEnded = false
    }

    /// Calls `showAccount` in a task on the main actor and turns the main loop until every
    /// call ended. `service` may cancel that task itself (see `cancelling`).
    @MainActor
    static func call(_ showAccount: @escaping ShowAccount, _ service: AccountService, cancel: CancelSwitch? = nil)
        -> Run
    {
        let screen = AccountScreen()
        let outcome = MainActorOutcome()
        let task = Task { @MainActor in
            do {
                try await showAccount(service, screen)
            } catch {
                outcome.error = error
            }
            outcome.endedAt = monotonicSeconds()
        }
        // Stored before the task can run: it runs on the main actor, which this function holds.
        cancel?.task.withLock { $0 = task }
        var run = Run(service: service, screen: screen)
        run.ended = MainLoop.run(timeout: callSeconds) { outcome.endedAt != nil }
        run.cancelledAt = cancel?.cancelledAt.current
        // Then until every request has ended, also one that runs on in a task of its own.
        run.callsEnded = MainLoop.run(timeout: settleSeconds) { service.calls.allSatisfy { $0.ended != nil } }
        task.cancel()
        run.error = outcome.error
        run.endedAt = outcome.endedAt
        return run
    }

    /// Cancels the task of one call the moment its service starts the user or items request:
    /// work is then in flight for sure, on any machine.
    final class CancelSwitch: Sendable {
        let task = Locked<Task<Void, Never>?>(nil)
        let cancelledAt = Locked<Double?>(nil)

        func cancel() {
            let first = cancelledAt.withLock { at -> Bool in
                guard at == nil else { return false }
                at = monotonicSeconds()
                return true
            }
            if first { task.current?.cancel() }
        }
    }

    /// Runs every check against `showAccount`. Call on the main thread: it turns the main run loop.
    @MainActor
    public static func run(_ showAccount: @escaping ShowAccount) -> [CheckResult] {
        let plain = call(showAccount, AccountService(loginLatency: 0.05, latency: 0.1, waitForPair: true))
        let failing = call(showAccount, AccountService(loginLatency: 0.05, latency: 0.1, failItems: true))
        let cancel = CancelSwitch()
        let cancelled = call(
            showAccount, AccountService(loginLatency: 0.05, latency: latency, onStart: { cancel.cancel() }),
            cancel: cancel)
        return [
            sideBySide(plain), shownOnce(plain), failureThrown(failing), cancelStops(cancelled),
            cancelPrompt(cancelled), nothingShownAfterCancel(cancelled), cancellationThrown(cancelled),
        ]
    }

    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return localized("it returned normally", ja: "普通に戻りました") }
        return error is CancellationError
            ? localized("it threw CancellationError", ja: "CancellationError を投げました") : localized(format: "it threw %@", ja: "エラーを投げました:「%@」", "\(error)")
    }

    static func sideBySide(_ run: Run) -> CheckResult {
        let peak = run.service.peakInFlight(of: ["user", "items"])
        return CheckResult(name: "the user and the items are fetched side by side", ja: "ユーザーとアイテムを並行して取得する", passed: peak == 2,
            expected: localized("after login, the user and the items requests in flight at the same time", ja: "ログインのあと、ユーザーとアイテムのリクエストが同時に実行中になる"),
            got: localized(format: "at most %d of them in flight at once", ja: "同時に実行中だったのは最大 %d 個", peak), hint: 1)
    }

    @MainActor
    static func shownOnce(_ run: Run) -> CheckResult {
        let shown = run.screen.shown.map { "\($0.user): \($0.items.joined(separator: ", "))" }
        return CheckResult(name: "without a cancel, the account is shown once", ja: "キャンセルしなければ、アカウントが 1 回だけ表示される",
            passed: run.ended && run.error == nil && shown == ["Aiko: tea, rice, fan"],
            expected: localized("show(user: \"Aiko\", items: [\"tea\", \"rice\", \"fan\"]) once, and no error", ja: "show(user: \"Aiko\", items: [\"tea\", \"rice\", \"fan\"]) が 1 回だけ呼ばれ、エラーはない"),
            got: !run.ended
                ? localized(format: "showAccount did not return within %d s", ja: "showAccount が %d 秒以内に戻りませんでした", Int(callSeconds))
                : localized(format: "%1$@; %2$@", ja: "%1$@。%2$@",
                    shown.isEmpty
                        ? localized("nothing shown", ja: "何も表示されていません")
                        : localized(format: "shown: %@", ja: "表示: %@", shown.joined(separator: " / ")), describe(run.error)),
            hint: 1)
    }

    @MainActor
    static func failureThrown(_ run: Run) -> CheckResult {
        let thrown = run.error as? AccountService.Failure
        return CheckResult(name: "a failed request is thrown, not shown", ja: "失敗したリクエストは表示せず、エラーとして投げる",
            passed: run.ended && thrown == .itemsUnavailable && run.screen.shown.isEmpty,
            expected: localized("when the items request fails: its error (itemsUnavailable) thrown, nothing shown", ja: "アイテムのリクエストが失敗したら、そのエラー（itemsUnavailable）が投げられ、何も表示されない"),
            got: localized(format: "%1$@, and %2$@ shown", ja: "%1$@。表示されたのは%2$@", describe(run.error),
                localized(count: run.screen.shown.count, "%d account", "%d accounts", ja: "アカウント %d 件")), hint: 2)
    }

    static func cancelStops(_ run: Run) -> CheckResult {
        guard let cancelledAt = run.cancelledAt else { return notCancelled("a cancel stops the requests in flight") }
        let late = run.service.calls.filter { $0.outcome == "answered" && ($0.ended ?? .infinity) > cancelledAt }
        return CheckResult(name: "a cancel stops the requests in flight", ja: "キャンセルで実行中のリクエストが止まる",
            passed: run.callsEnded && late.isEmpty,
            expected: localized("every request still in flight at the cancel ends as cancelled, none is answered after it", ja: "キャンセルの時点で実行中だったリクエストはすべてキャンセルで終わり、そのあとに応答するものはない"),
            got: !run.callsEnded
                ? localized(format: "requests still running %d s after the cancel", ja: "キャンセルから %d 秒たってもリクエストが動いていました", Int(callSeconds + settleSeconds))
                : late.isEmpty
                    ? localized("none answered after the cancel", ja: "キャンセルのあとに応答したものはありません")
                    : localized(format: "answered after the cancel: %@", ja: "キャンセルのあとに応答したもの: %@", late.map(\.name).joined(separator: ", ")),
            hint: 1)
    }

    /// Prompt means: it did not wait for an answer. Every request in flight at the cancel can
    /// only end early by being cancelled; one that answers took its whole latency.
    static func cancelPrompt(_ run: Run) -> CheckResult {
        let name = "a cancel ends the call promptly"
        guard let cancelledAt = run.cancelledAt else { return notCancelled(name) }
        guard let endedAt = run.endedAt else {
            let got = localized(format: "it had not ended %d s after the cancel", ja: "キャンセルから %d 秒たっても終わっていませんでした", Int(callSeconds))
            return CheckResult(name: name, passed: false, expected: promptExpected, got: got, hint: 1)
        }
        let waitedFor = run.service.calls.filter {
            $0.outcome == "answered" && ($0.ended ?? .infinity) > cancelledAt && ($0.ended ?? .infinity) <= endedAt
        }
        return CheckResult(
            name: name, passed: waitedFor.isEmpty, expected: promptExpected,
            got: waitedFor.isEmpty
                ? localized(format: "it ended %.2f s after the cancel, without waiting for an answer", ja: "応答を待たずに、キャンセルの %.2f 秒後に終わりました", endedAt - cancelledAt)
                : localized(format: "it waited for the answer of %@ (%.2f s after the cancel)", ja: "%1$@ の応答を待ちました（キャンセルの %2$.2f 秒後）",
                    waitedFor.map(\.name).joined(separator: localized(" and ", ja: "、")), endedAt - cancelledAt),
            hint: 1)
    }

    static var promptExpected: String {
        localized("showAccount ends after the cancel without waiting for any request's answer", ja: "キャンセルのあと、どのリクエストの応答も待たずに showAccount が終わる")
    }

    @MainActor
    static func nothingShownAfterCancel(_ run: Run) -> CheckResult {
        let name = "nothing is shown after a cancel"
        guard let cancelledAt = run.cancelledAt else { return notCancelled(name) }
        let after = run.screen.shown.filter { $0.at >= cancelledAt }
        return CheckResult(
            name: name, passed: run.ended && after.isEmpty,
            expected: localized("no show(user:items:) call after the task was cancelled", ja: "タスクがキャンセルされたあとに show(user:items:) が呼ばれない"),
            got: after.isEmpty
                ? localized("nothing shown", ja: "何も表示されていません")
                : localized(format: "shown after the cancel: %@", ja: "キャンセルのあとに表示: %@",
                    after.map { "\($0.user): [\($0.items.joined(separator: ", "))]" }.joined(separator: " / ")),
            hint: 2)
    }

    static func cancellationThrown(_ run: Run) -> CheckResult {
        let name = "the cancel reaches the caller as CancellationError"
        guard run.cancelledAt != nil else { return notCancelled(name) }
        return CheckResult(
            name: name, passed: run.ended && run.error is CancellationError,
            expected: localized("showAccount throws CancellationError (a cancel is not swallowed)", ja: "showAccount が CancellationError を投げる（キャンセルを握りつぶさない）"),
            got: run.ended
                ? describe(run.error) : localized(format: "it had not ended %d s after the cancel", ja: "キャンセルから %d 秒たっても終わっていませんでした", Int(callSeconds)),
            hint: 3)
    }

    static func notCancelled(_ name: String) -> CheckResult {
        CheckResult(
            name: name, passed: false, expected: localized("a cancel while the user or items request is in flight", ja: "ユーザーかアイテムのリクエストの実行中にキャンセルする"),
            got: localized("showAccount never started the user or items request (or ended first), so nothing was cancelled", ja: "showAccount がユーザーやアイテムのリクエストを始めなかった（か、先に終わった）ので、何もキャンセルされませんでした"),
            hint: 1)
    }
}

/// How a main-actor task ended, read by the main loop (both on the main actor, so no lock).
@MainActor
final class MainActorOutcome {
    var error: (any Error)?
    var endedAt: Double?
}
