import ExerciseChecks
import Foundation
import WorkshopCore

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

    // The checks, in the order they report: each declared once, in both languages.
    static let fetchedSideBySide = Check(
        "the user and the items are fetched side by side", ja: "ユーザとアイテムを並行して取得する",
        wanted: "after login, the user and the items requests in flight at the same time",
        ja: "ログインのあと、ユーザとアイテムのリクエストが同時に実行中になる", hint: 1)
    static let shownOnceUncancelled = Check(
        "without a cancel, the account is shown once", ja: "キャンセルしなければ、アカウントが 1 回だけ表示される",
        wanted: "show(user: \"Aiko\", items: [\"tea\", \"rice\", \"fan\"]) once, and no error",
        ja: "show(user: \"Aiko\", items: [\"tea\", \"rice\", \"fan\"]) が 1 回だけ呼ばれ、エラーはない", hint: 1)
    static let failureThrownNotShown = Check(
        "a failed request is thrown, not shown", ja: "失敗したリクエストは表示せず、エラーとして投げる",
        wanted: "when the items request fails: its error (itemsUnavailable) thrown, nothing shown",
        ja: "アイテムのリクエストが失敗したら、そのエラー（itemsUnavailable）が投げられ、何も表示されない", hint: 2)
    static let cancelStopsRequests = Check(
        "a cancel stops the requests in flight", ja: "キャンセルで実行中のリクエストが止まる",
        wanted: "every request still in flight at the cancel ends as cancelled, none is answered after it",
        ja: "キャンセルの時点で実行中だったリクエストはすべてキャンセルで終わり、そのあとに応答するものはない", hint: 1)
    static let cancelEndsPromptly = Check(
        "a cancel ends the call promptly", ja: "キャンセルで呼び出しがすぐに終わる",
        wanted: "showAccount ends after the cancel without waiting for any request's answer",
        ja: "キャンセルのあと、どのリクエストの応答も待たずに showAccount が終わる", hint: 1)
    static let showsNothingAfterCancel = Check(
        "nothing is shown after a cancel", ja: "キャンセルのあとは何も表示しない",
        wanted: "no show(user:items:) call after the task was cancelled",
        ja: "タスクがキャンセルされたあとに show(user:items:) が呼ばれない", hint: 2)
    static let cancelReachesCaller = Check(
        "the cancel reaches the caller as CancellationError", ja: "キャンセルが CancellationError として呼び出し元に届く",
        wanted: "showAccount throws CancellationError (a cancel is not swallowed)",
        ja: "showAccount が CancellationError を投げる（キャンセルを握りつぶさない）", hint: 3)
    public static let all = [
        fetchedSideBySide, shownOnceUncancelled, failureThrownNotShown, cancelStopsRequests, cancelEndsPromptly,
        showsNothingAfterCancel, cancelReachesCaller,
    ]

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
            ? localized("it threw CancellationError", ja: "CancellationError を投げました")
            : localized(format: "it threw %@", ja: "エラーを投げました:「%@」", "\(error)")
    }

    static func sideBySide(_ run: Run) -> CheckResult {
        let peak = run.service.peakInFlight(of: ["user", "items"])
        return fetchedSideBySide.result(
            peak == 2,
            got: localized(format: "at most %d of them in flight at once", ja: "同時に実行中だったのは最大 %d 個", peak))
    }

    @MainActor
    static func shownOnce(_ run: Run) -> CheckResult {
        let shown = run.screen.shown.map { "\($0.user): \($0.items.joined(separator: ", "))" }
        return shownOnceUncancelled.result(
            run.ended && run.error == nil && shown == ["Aiko: tea, rice, fan"],
            got: !run.ended
                ? localized(
                    format: "showAccount did not return within %d s", ja: "showAccount が %d 秒以内に戻りませんでした",
                    Int(callSeconds))
                : localized(
                    format: "%1$@; %2$@", ja: "%1$@。%2$@",
                    shown.isEmpty
                        ? localized("nothing shown", ja: "何も表示されていません")
                        : localized(format: "shown: %@", ja: "表示: %@", shown.joined(separator: " / ")),
                    describe(run.error)))
    }

    @MainActor
    static func failureThrown(_ run: Run) -> CheckResult {
        let thrown = run.error as? AccountService.Failure
        return failureThrownNotShown.result(
            run.ended && thrown == .itemsUnavailable && run.screen.shown.isEmpty,
            got: localized(
                format: "%1$@, and %2$@ shown", ja: "%1$@。表示されたのは%2$@", describe(run.error),
                localized(count: run.screen.shown.count, "%d account", "%d accounts", ja: "アカウント %d 件")))
    }

    static func cancelStops(_ run: Run) -> CheckResult {
        guard let cancelledAt = run.cancelledAt else { return notCancelled(cancelStopsRequests) }
        let late = run.service.calls.filter { $0.outcome == "answered" && ($0.ended ?? .infinity) > cancelledAt }
        return cancelStopsRequests.result(
            run.callsEnded && late.isEmpty,
            got: !run.callsEnded
                ? localized(
                    format: "requests still running %d s after the cancel", ja: "キャンセルから %d 秒たってもリクエストが動いていました",
                    Int(callSeconds + settleSeconds))
                : late.isEmpty
                    ? localized("none answered after the cancel", ja: "キャンセルのあとに応答したものはありません")
                    : localized(
                        format: "answered after the cancel: %@", ja: "キャンセルのあとに応答したもの: %@",
                        late.map(\.name).joined(separator: ", ")))
    }

    /// Prompt means: it did not wait for an answer. Every request in flight at the cancel can
    /// only end early by being cancelled; one that answers took its whole latency.
    static func cancelPrompt(_ run: Run) -> CheckResult {
        guard let cancelledAt = run.cancelledAt else { return notCancelled(cancelEndsPromptly) }
        guard let endedAt = run.endedAt else {
            let got = localized(
                format: "it had not ended %d s after the cancel", ja: "キャンセルから %d 秒たっても終わっていませんでした", Int(callSeconds))
            return cancelEndsPromptly.result(false, got: got)
        }
        let waitedFor = run.service.calls.filter {
            $0.outcome == "answered" && ($0.ended ?? .infinity) > cancelledAt && ($0.ended ?? .infinity) <= endedAt
        }
        return cancelEndsPromptly.result(
            waitedFor.isEmpty,
            got: waitedFor.isEmpty
                ? localized(
                    format: "it ended %.2f s after the cancel, without waiting for an answer",
                    ja: "応答を待たずに、キャンセルの %.2f 秒後に終わりました", endedAt - cancelledAt)
                : localized(
                    format: "it waited for the answer of %@ (%.2f s after the cancel)",
                    ja: "%1$@ の応答を待ちました（キャンセルの %2$.2f 秒後）",
                    waitedFor.map(\.name).joined(separator: localized(" and ", ja: "、")), endedAt - cancelledAt))
    }

    @MainActor
    static func nothingShownAfterCancel(_ run: Run) -> CheckResult {
        guard let cancelledAt = run.cancelledAt else { return notCancelled(showsNothingAfterCancel) }
        let after = run.screen.shown.filter { $0.at >= cancelledAt }
        return showsNothingAfterCancel.result(
            run.ended && after.isEmpty,
            got: after.isEmpty
                ? localized("nothing shown", ja: "何も表示されていません")
                : localized(
                    format: "shown after the cancel: %@", ja: "キャンセルのあとに表示: %@",
                    after.map { "\($0.user): [\($0.items.joined(separator: ", "))]" }.joined(separator: " / ")))
    }

    static func cancellationThrown(_ run: Run) -> CheckResult {
        guard run.cancelledAt != nil else { return notCancelled(cancelReachesCaller) }
        return cancelReachesCaller.result(
            run.ended && run.error is CancellationError,
            got: run.ended
                ? describe(run.error)
                : localized(
                    format: "it had not ended %d s after the cancel", ja: "キャンセルから %d 秒たっても終わっていませんでした",
                    Int(callSeconds)))
    }

    /// `check` failed because nothing was cancelled: it wants a cancel first, and hint 1 (start
    /// the requests) helps, whichever check it is.
    static func notCancelled(_ check: Check) -> CheckResult {
        var result = check.result(
            false,
            wanted: localized(
                "a cancel while the user or items request is in flight", ja: "ユーザかアイテムのリクエストの実行中にキャンセルする"),
            got: localized(
                "showAccount never started the user or items request (or ended first), so nothing was cancelled",
                ja: "showAccount がユーザやアイテムのリクエストを始めなかった（か、先に終わった）ので、何もキャンセルされませんでした"))
        result.hint = 1
        return result
    }
}

/// How a main-actor task ended, read by the main loop (both on the main actor, so no lock).
@MainActor
final class MainActorOutcome {
    var error: (any Error)?
    var endedAt: Double?
}
