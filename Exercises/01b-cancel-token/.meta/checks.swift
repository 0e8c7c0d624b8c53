import Dispatch
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks of exercise 01b (Exercises/01b-cancel-token): GCD blocks that share a cancel
/// token, so that a cancel sends no more requests, stops the one in flight and shows nothing,
/// and a dispatch group that says when the last block has ended.
public enum Exercise01bChecks {
    public typealias MakeLoader = @MainActor (ItemClient, ItemScreen, DispatchQueue) -> any ItemLoading

    static let ids = Array(1...5)
    /// The item whose request the cancel comes with.
    static let trigger = 2
    /// Every request's latency on the server.
    static let latency = 0.05
    /// Bounds on every wait: four runs stay well inside the 20 s a check program may run.
    static let waitSeconds = 3.0
    /// The ids, as a row list says them.
    static let idsText = ids.map(String.init).joined(separator: ", ")

    // The checks, in the order they report: each declared once, in both languages.
    static let fetchesOffMain = Check(
        "fetches off the main thread", ja: "メインスレッドの外で取得する",
        wanted: "every item(_:) call runs on a queue, not on the main thread",
        ja: "item(_:) の呼び出しはすべてメインスレッドではなくキューで動く", hint: 1)
    static let everyRowShownOnce = Check(
        "without a cancel, every row is shown once", ja: "キャンセルしなければ、どの行も 1 回ずつ表示される",
        wanted: "rows \(idsText), each once with its own item", ja: "行 \(idsText) がそれぞれ自分のアイテムで 1 回ずつ表示される",
        hint: 1)
    static let cancelBeforeStartSendsNothing = Check(
        "a cancel before start sends nothing", ja: "開始前のキャンセルでは何も送らない",
        wanted: "cancel() and then start(ids:): no request reaches the server, no row is shown",
        ja: "cancel() のあとに start(ids:) を呼ぶと、リクエストは 1 つもサーバに届かず、行も表示されない", hint: 1)
    static let cancelSendsNoMore = Check(
        "a cancel sends no more requests", ja: "キャンセルのあとはリクエストを送らない",
        wanted: "after the cancel, no request reaches the server beyond one already on its way",
        ja: "キャンセルのあと、すでに送られかけていた 1 つを除いて、サーバにリクエストが届かない", hint: 1)
    static let cancelStopsRequest = Check(
        "a cancel stops the request in flight", ja: "キャンセルで通信中のリクエストが止まる",
        wanted: "a request in flight at the cancel is stopped (it ends as cancelled), none is answered after it",
        ja: "キャンセルの時点で通信中のリクエストは止まり（キャンセルで終わり）、そのあとに応答するものはない", hint: 2)
    static let showsNothingAfterCancel = Check(
        "nothing is shown after a cancel", ja: "キャンセルのあとは何も表示しない",
        wanted: "no show(_:row:) call after the cancel", ja: "キャンセルのあとに show(_:row:) が呼ばれない", hint: 2)
    static let groupSaysDone = Check(
        "the group says when the last block has ended", ja: "最後のブロックが終わったことをグループが知らせる",
        wanted:
            "work.notify runs after every item(_:) call and every show has ended, and within \(Int(waitSeconds)) s of a cancel",
        ja: "work.notify が動くのは item(_:) の呼び出しと表示がすべて終わったあとで、キャンセルから \(Int(waitSeconds)) 秒以内", hint: 3)
    public static let all = [
        fetchesOffMain, everyRowShownOnce, cancelBeforeStartSendsNothing, cancelSendsNoMore, cancelStopsRequest,
        showsNothingAfterCancel, groupSaysDone,
    ]

    /// Every loader made, kept until the program ends: a group freed while a block it counted
    /// has not left it (a `leave()` forgotten on one path) stops the program inside libdispatch
    /// ("Group object deallocated while in use"), and that mistake deserves its check's words.
    /// A lock: written on main only, but a static must be safe from any thread.
    static let kept = Locked<[any ItemLoading]>([])

    /// How one run goes: when the check cancels, and what the server holds until it has.
    enum Plan: Equatable {
        /// No cancel: every item answers after `latency`.
        case plain
        /// The cancel comes while item `trigger`'s request is on the server: the server holds
        /// that request (and every later one) until the loader's `cancel()` has returned.
        case inFlight
        /// The cancel is queued on main the moment item `trigger`'s call has its answer, before
        /// the loader can queue its show: the answer is on its way to main at the cancel.
        case answered
        /// `cancel()` before `start(ids:)`.
        case beforeStart
    }

    struct Run {
        var plan: Plan
        var calls: [ItemClient.Call] = []
        var shown: [ItemScreen.Shown] = []
        var cancelledAt: Double?
        /// When the group's `notify` block ran on main.
        var doneAt: Double?
        /// The queue and then main ran a block queued after the loader's: what they had is done.
        var drained = false
        var requests = 0
        var requestsAfterCancel = 0
        var serverFailed: String?
    }

    /// A gate opened once; server threads wait for it, each wait bounded.
    // @unchecked: `condition` (an NSCondition) guards `isOpen`.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }

        @discardableResult
        func wait(timeout: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while !isOpen {
                if !condition.wait(until: deadline) { return isOpen }
            }
            return true
        }
    }

    /// The user's tap on "cancel", on main: it notes the time, calls the loader's `cancel()`, and
    /// only then opens the gate that holds the requests the cancel must find in flight.
    final class CancelSwitch: Sendable {
        let cancelledAt = Locked<Double?>(nil)
        let loader = Locked<(any ItemLoading)?>(nil)
        let gate = Gate()

        @MainActor
        func cancelNow() {
            // Only on main, so the check and the set cannot interleave with another tap.
            guard cancelledAt.current == nil, let loader = loader.current else { return }
            cancelledAt.withLock { $0 = monotonicSeconds() }
            loader.cancel()
            gate.open()
        }

        /// From any thread: the tap, queued on main behind whatever main already has.
        func tap() {
            DispatchQueue.main.async { self.cancelNow() }
        }
    }

    /// The server's one route, `/items/N`: item N's title, after what the plan holds it for.
    static func route(_ plan: Plan, _ cancel: CancelSwitch) -> FixtureServer.Route {
        { request, _ in
            guard let id = request.path.split(separator: "/").last.flatMap({ Int($0) }) else {
                return .text(404, "no such item")
            }
            if plan == .inFlight && id == trigger { cancel.tap() }
            if (plan == .inFlight && id >= trigger) || (plan == .answered && id > trigger) {
                cancel.gate.wait(timeout: waitSeconds)
            }
            return HTTPResponse(
                contentType: "text/plain; charset=utf-8", body: Array(ItemClient.title(of: id).utf8),
                compressible: false)
        }
    }

    /// One run of `make`'s loader against a server of its own, on the main thread.
    @MainActor
    static func run(_ plan: Plan, _ make: MakeLoader) -> Run {
        var run = Run(plan: plan)
        let cancel = CancelSwitch()
        let server = FixtureServer(
            knobs: ServerKnobs(latencySeconds: latency), routes: [("/items/", route(plan, cancel))])
        let baseURL: URL
        do { baseURL = try server.start() } catch {
            run.serverFailed = "\(error)"
            return run
        }
        defer {
            cancel.gate.open()  // no server thread waits past the run
            server.stop()
        }
        let client = ItemClient(baseURL: baseURL) { id in
            if plan == .answered && id == trigger { cancel.tap() }
        }
        let screen = ItemScreen()
        let queue = DispatchQueue(label: "item-queue")
        let loader = make(client, screen, queue)
        cancel.loader.withLock { $0 = loader }
        kept.withLock { $0.append(loader) }
        let done = DoneTime()

        if plan == .beforeStart { cancel.cancelNow() }
        loader.start(ids: ids)
        // The caller's question, asked after `start` as a caller would: when has it all ended?
        loader.work.notify(queue: DispatchQueue.main) {
            MainActor.assumeIsolated { done.at = done.at ?? monotonicSeconds() }
        }
        if plan == .plain {
            MainLoop.run(timeout: waitSeconds) { done.at != nil && screen.shown.count >= ids.count }
        } else {
            MainLoop.run(timeout: waitSeconds) { cancel.cancelledAt.current != nil }
            // Bounded from the cancel: the group must say "done" soon after it.
            MainLoop.run(timeout: waitSeconds) { done.at != nil }
        }
        // Then let everything already queued run out: a block on the queue after the loader's,
        // then one on main after theirs. What the server and the screen got by then is all.
        let drained = MainActorFlag()
        queue.async { DispatchQueue.main.async { drained.isSet = true } }
        run.drained = MainLoop.run(timeout: waitSeconds) { drained.isSet }

        run.calls = client.calls
        run.shown = screen.shown
        run.cancelledAt = cancel.cancelledAt.current
        run.doneAt = done.at
        run.requests = server.stats.requests
        if let cancelledAt = run.cancelledAt { run.requestsAfterCancel = server.requestsReceived(since: cancelledAt) }
        return run
    }

    /// Runs every check against the loaders `make` makes. Call on the main thread: it turns the
    /// main run loop.
    @MainActor
    public static func run(_ make: MakeLoader) -> [CheckResult] {
        let plain = run(.plain, make)
        let inFlight = run(.inFlight, make)
        let answered = run(.answered, make)
        let beforeStart = run(.beforeStart, make)
        if let failure = [plain, inFlight, answered, beforeStart].compactMap(\.serverFailed).first {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
                    got: failure,
                    hint: 1)
            ]
        }
        let cancelled = [inFlight, answered]
        return [
            offMain(plain), shownOnce(plain), nothingBeforeStart(beforeStart), noMoreRequests(cancelled),
            stopsInFlight(cancelled), nothingShownAfterCancel(cancelled + [beforeStart]),
            groupTellsTheEnd([plain] + cancelled + [beforeStart]),
        ]
    }

    static func describe(_ plan: Plan) -> String {
        switch plan {
        case .plain: localized("(no cancel)", ja: "（キャンセルなし）")
        case .inFlight:
            localized(
                format: "(cancelled while item %d's request was in flight)", ja: "（アイテム %d のリクエストの通信中にキャンセル）", trigger)
        case .answered:
            localized(format: "(cancelled as item %d's answer came)", ja: "（アイテム %d の応答が来たところでキャンセル）", trigger)
        case .beforeStart: localized("(cancelled before start)", ja: "（開始前にキャンセル）")
        }
    }

    static func offMain(_ run: Run) -> CheckResult {
        let onMain = run.calls.filter(\.onMainThread).count
        return fetchesOffMain.result(
            !run.calls.isEmpty && onMain == 0,
            got: run.calls.isEmpty
                ? localized("no item was fetched", ja: "アイテムが 1 つも取得されませんでした")
                : onMain == 0
                    ? localized(
                        format: "all %@ off the main thread", ja: "%@すべてがメインスレッドの外でした",
                        localized(count: run.calls.count, "%d call", "%d calls", ja: "%d 回の呼び出し"))
                    : localized(
                        format: "%1$d of %2$@ on the main thread", ja: "%2$@のうち %1$d 回がメインスレッドでした", onMain,
                        localized(count: run.calls.count, "%d call", "%d calls", ja: "%d 回の呼び出し")))
    }

    static func shownOnce(_ run: Run) -> CheckResult {
        let rows = run.shown.map(\.row).sorted()
        let wrong = run.shown.filter { $0.item != ItemClient.title(of: $0.row) }.map(\.row)
        let passed = rows == ids && wrong.isEmpty
        let got: String
        if passed {
            got = localized(
                format: "rows %@, each once", ja: "行 %@ がそれぞれ 1 回ずつ", rows.map(String.init).joined(separator: ", "))
        } else if rows.isEmpty {
            got = localized(format: "nothing shown within %d s", ja: "%d 秒以内に何も表示されませんでした", Int(waitSeconds))
        } else if !wrong.isEmpty {
            got = localized(
                format: "the wrong item on rows %@", ja: "%@ 行目のアイテムが違います",
                wrong.map(String.init).joined(separator: ", "))
        } else {
            got = localized(format: "rows shown: %@", ja: "表示された行: %@", rows.map(String.init).joined(separator: ", "))
        }
        return everyRowShownOnce.result(passed, got: got)
    }

    static func nothingBeforeStart(_ run: Run) -> CheckResult {
        cancelBeforeStartSendsNothing.result(
            run.drained && run.requests == 0 && run.shown.isEmpty,
            got: !run.drained
                ? localized(format: "the queue was still busy %d s later", ja: "%d 秒たってもキューが動いていました", Int(waitSeconds))
                : localized(
                    format: "%1$@ reached the server, %2$@ shown", ja: "サーバに届いたのが%1$@、表示されたのが %2$@",
                    localized(count: run.requests, "%d request", "%d requests", ja: "リクエスト %d 回"),
                    localized(count: run.shown.count, "%d row", "%d rows", ja: "%d 行")))
    }

    /// A request may be on its way when the tap comes: a block can check the token just
    /// before it. Beyond that one, nothing.
    static let lateRequestsAllowed = 1

    static func noMoreRequests(_ runs: [Run]) -> CheckResult {
        if let missing = runs.first(where: { $0.cancelledAt == nil }) {
            return notCancelled(cancelSendsNoMore, missing)
        }
        let late = runs.filter { !$0.drained || $0.requestsAfterCancel > lateRequestsAllowed }
        return cancelSendsNoMore.result(
            late.isEmpty,
            got: runs.map { run in
                run.drained
                    ? localized(
                        format: "%1$@ after the cancel %2$@", ja: "キャンセルのあとに%1$@%2$@",
                        localized(count: run.requestsAfterCancel, "%d request", "%d requests", ja: "リクエスト %d 回"),
                        describe(run.plan))
                    : localized(
                        format: "the queue was still busy %1$d s after the cancel %2$@",
                        ja: "キャンセルから %1$d 秒たってもキューが動いていました%2$@", Int(waitSeconds),
                        describe(run.plan))
            }.joined(separator: "; "))
    }

    static func stopsInFlight(_ runs: [Run]) -> CheckResult {
        if let missing = runs.first(where: { $0.cancelledAt == nil }) {
            return notCancelled(cancelStopsRequest, missing)
        }
        let answeredLate = runs.map { run in
            run.calls.filter { $0.outcome == "answered" && ($0.ended ?? .infinity) > (run.cancelledAt ?? 0) }
        }
        let unfinished = runs.filter { run in run.calls.contains { $0.ended == nil } }
        let passed = unfinished.isEmpty && answeredLate.allSatisfy(\.isEmpty)
        var got: String
        if !unfinished.isEmpty {
            got = localized(
                format: "a request still in flight %d s after the cancel", ja: "キャンセルから %d 秒たっても通信中のリクエストがありました",
                Int(waitSeconds))
        } else if passed {
            let stopped = runs.flatMap(\.calls).filter { $0.outcome == "cancelled" }.count
            got = localized(
                format: "none answered after the cancel (%@ ended as cancelled)",
                ja: "キャンセルのあとに応答したものはありません（%@がキャンセルで終わりました）",
                localized(count: stopped, "%d call", "%d calls", ja: "%d 回の呼び出し"))
        } else {
            got = localized(
                format: "answered after the cancel: %@", ja: "キャンセルのあとに応答したもの: %@",
                zip(runs, answeredLate).filter { !$0.1.isEmpty }.map { run, calls in
                    localized(
                        format: "item %1$@ %2$@", ja: "アイテム %1$@%2$@",
                        calls.map { String($0.id) }.joined(separator: ", "),
                        describe(run.plan))
                }.joined(separator: "; "))
        }
        return cancelStopsRequest.result(passed, got: got)
    }

    static func nothingShownAfterCancel(_ runs: [Run]) -> CheckResult {
        if let missing = runs.first(where: { $0.cancelledAt == nil }) {
            return notCancelled(showsNothingAfterCancel, missing)
        }
        let late = runs.map { run in run.shown.filter { $0.at >= (run.cancelledAt ?? 0) } }
        let passed = runs.allSatisfy(\.drained) && late.allSatisfy(\.isEmpty)
        return showsNothingAfterCancel.result(
            passed,
            got: passed
                ? localized("nothing shown after the cancel", ja: "キャンセルのあとには何も表示されていません")
                : !runs.allSatisfy(\.drained)
                    ? localized(
                        format: "the queue was still busy %d s after the cancel", ja: "キャンセルから %d 秒たってもキューが動いていました",
                        Int(waitSeconds))
                    : localized(
                        format: "shown after the cancel: %@", ja: "キャンセルのあとに表示: %@",
                        zip(runs, late).filter { !$0.1.isEmpty }.map { run, shown in
                            localized(
                                format: "row %1$@ %2$@", ja: "行 %1$@%2$@",
                                shown.map { String($0.row) }.joined(separator: ", "),
                                describe(run.plan))
                        }.joined(separator: "; ")))
    }

    static func groupTellsTheEnd(_ runs: [Run]) -> CheckResult {
        var problems: [String] = []
        for run in runs {
            guard let doneAt = run.doneAt else {
                problems.append(
                    run.plan == .plain
                        ? localized(
                            format: "no notify within %1$d s of start %2$@", ja: "開始から %1$d 秒以内に notify が来ませんでした%2$@",
                            Int(waitSeconds), describe(run.plan))
                        : localized(
                            format: "no notify within %1$d s of the cancel %2$@",
                            ja: "キャンセルから %1$d 秒以内に notify が来ませんでした%2$@", Int(waitSeconds), describe(run.plan)))
                continue
            }
            let callsAfter = run.calls.filter { ($0.ended ?? .infinity) > doneAt }.count
            let showsAfter = run.shown.filter { $0.at > doneAt }.count
            if !run.drained || callsAfter > 0 || showsAfter > 0 {
                problems.append(
                    localized(
                        format: "notify ran before %1$@ and %2$@ had ended %3$@",
                        ja: "%1$@と %2$@ が終わる前に notify が動きました%3$@",
                        localized(count: callsAfter, "%d call", "%d calls", ja: "%d 回の呼び出し"),
                        localized(count: showsAfter, "%d show", "%d shows", ja: "%d 回の表示"), describe(run.plan)))
            }
        }
        return groupSaysDone.result(
            problems.isEmpty,
            got: problems.isEmpty
                ? localized("notify ran after the last block every time", ja: "notify はいつも最後のブロックのあとに動きました")
                : problems.joined(separator: "; "))
    }

    /// `check` failed because nothing was cancelled: it wants a cancel first, and hint 1 (the
    /// token) helps, whichever check it is.
    static func notCancelled(_ check: Check, _ run: Run) -> CheckResult {
        var result = check.result(
            false, wanted: localized("a cancel while the items are being fetched", ja: "アイテムの取得中にキャンセルする"),
            got: localized(
                format: "item %1$d was never fetched, so nothing was cancelled %2$@",
                ja: "アイテム %1$d が取得されなかったので、何もキャンセルされませんでした%2$@", trigger, describe(run.plan)))
        result.hint = 1
        return result
    }
}

/// When the group's notify block ran, read by the main loop (both on the main actor, so no lock).
@MainActor
final class DoneTime {
    var at: Double?
}
