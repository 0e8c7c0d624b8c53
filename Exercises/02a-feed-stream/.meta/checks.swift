import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks of exercise 02a (Exercises/02a-feed-stream): URLSession's delegate callbacks
/// bridged into an `AsyncStream` that a main-actor loop awaits. The stream must hand every
/// chunk over as it arrives, end after the last one, end with an error on an error page, and a
/// consumer that stops listening must stop the download.
///
/// The evidence is the fixture server's: what it wrote, and whether it could write it all (a
/// client that cancels closes its connection, and the server's next writes fail), and the order
/// of events on the main thread (a chunk seen before the server had finished writing).
public enum Exercise02aChecks {
    public typealias MakeEvents = @Sendable (URL) -> AsyncStream<FeedEvent>

    /// The feed's items: about 10 KB, paced by `bandwidth` to take about 1.3 s, in slices of
    /// `bandwidth / 50` bytes: the delegate gets it in many chunks.
    static let items = 30
    static let bandwidth = 8_000
    /// Bounds on every wait. The download itself is bounded by `downloadSeconds`; the stream
    /// must end within `endSeconds` of the server's last byte. All runs stay well inside the
    /// 20 s a check program may run, however slow the stream under test.
    static let downloadSeconds = 6.0
    static let endSeconds = 2.0

    // The checks, in the order they report: each declared once, in both languages.
    static let everyByteInOrder = Check(
        "every byte arrives, in order", ja: "すべてのバイトが順番どおりに届く",
        wanted: "the whole feed as .chunk events, every byte in the order the server sent it",
        ja: "フィード全体が .chunk イベントで届き、どのバイトもサーバが送った順に並ぶ", hint: 1)
    static let handedOverAsItArrives = Check(
        "each chunk is handed over as it arrives", ja: "チャンクは届いたそばから渡す",
        wanted: "the first chunk reaches the main-actor loop while the server is still writing (a slow link)",
        ja: "サーバがまだ書いている間に、最初のチャンクがメインアクターのループに届く（遅い回線）", hint: 1)
    static let endsAfterLastChunk = Check(
        "the stream ends after the last chunk", ja: "最後のチャンクのあとでストリームが終わる",
        wanted: "the `for await` loop ends by itself once the whole feed is in (within \(Int(endSeconds)) s)",
        ja: "フィードが全部届いたら、`for await` ループがひとりでに終わる（\(Int(endSeconds)) 秒以内）", hint: 3)
    static let cancelStopsDownload = Check(
        "a cancel stops the download", ja: "キャンセルでダウンロードが止まる",
        wanted:
            "cancelling the consumer's task after the first chunk cancels the request: the server cannot write the rest of the feed",
        ja: "最初のチャンクのあとで受け取る側のタスクをキャンセルすると、リクエストがキャンセルされ、サーバはフィードの残りを書けない", hint: 1)
    static let errorEndsStream = Check(
        "an HTTP 500 ends the stream with an error", ja: "HTTP 500 ではストリームがエラーで終わる",
        wanted: "no chunk of the error page, one .failed event, then the end of the stream",
        ja: "エラーページのチャンクは 1 つも渡さず、.failed イベントを 1 つ出してから、ストリームが終わる", hint: 2)
    public static let all = [
        everyByteInOrder, handedOverAsItArrives, endsAfterLastChunk, cancelStopsDownload, errorEndsStream,
    ]

    enum Plan: Equatable {
        /// The whole feed.
        case plain
        /// The consumer's task is cancelled when its first chunk is in.
        case cancel
        /// The server answers 500 with a short error page.
        case error500

        var path: String {
            switch self {
            case .plain, .cancel: "/feed.xml?items=\(items)"
            case .error500: "/feed.xml?items=\(items)&fault=500"
            }
        }
    }

    /// What the consumer saw, on the main actor.
    @MainActor
    final class Consumer {
        var events: [FeedEvent] = []
        /// For each event: had the server finished writing its response when it reached the loop?
        var serverDoneAtEvent: [Bool] = []
        var onMainThread: [Bool] = []
        /// The `for await` loop ended by itself (the stream finished) before the check cancelled it.
        var endedByItself = false
        var cancelled = false
        var loopExited = false
    }

    /// What the server did with the one response, as it finished writing it.
    struct Response: Sendable {
        var status: Int
        var wireBytes: Int
    }

    struct Run {
        var plan: Plan
        var events: [FeedEvent] = []
        var serverDoneAtEvent: [Bool] = []
        var onMainThread: [Bool] = []
        var endedByItself = false
        var cancelled = false
        var response: Response?
        var requests = 0
        var completeResponses = 0
        var writeFailures = 0
        var document = Data()
        var serverFailed: String?

        var bytes: Data { events.reduce(into: Data()) { if case .chunk(let data) = $1 { $0 += data } } }
        var chunks: Int { events.filter { if case .chunk = $0 { true } else { false } }.count }
        var failure: String? {
            events.lazy.compactMap { if case .failed(let why) = $0 { why } else { nil } }.first
        }
    }

    /// One run of the learner's stream against a server of its own, consumed on the main actor.
    @MainActor
    static func run(_ plan: Plan, _ makeEvents: @escaping MakeEvents) -> Run {
        var run = Run(plan: plan)
        // A lock: a server thread sets it when the response is written (or fails), main reads it.
        let finished = Locked<Response?>(nil)
        let server = FixtureServer(
            knobs: ServerKnobs(bandwidthBytesPerSecond: bandwidth, gzip: false, etags: false),
            onRequest: { entry in
                finished.withLock { $0 = $0 ?? Response(status: entry.status, wireBytes: entry.wireBytes) }
            })
        let baseURL: URL
        do { baseURL = try server.start() } catch {
            run.serverFailed = "\(error)"
            return run
        }
        defer { server.stop() }
        run.document = Data(FeedAPI.feed(items: items, baseURL: baseURL.absoluteString).utf8)
        guard let url = URL(string: baseURL.absoluteString + plan.path) else {
            run.serverFailed = localized(format: "no URL for %@", ja: "%@ の URL が作れません", plan.path)
            return run
        }

        let consumer = Consumer()
        let stream = makeEvents(url)
        // The screen's task: it awaits the events on the main actor, one by one.
        let task = Task { @MainActor in
            for await event in stream {
                consumer.events.append(event)
                consumer.serverDoneAtEvent.append(finished.current != nil)
                consumer.onMainThread.append(MainPlace.here.isMain)
            }
            if !consumer.cancelled { consumer.endedByItself = true }
            consumer.loopExited = true
        }
        if plan == .cancel {
            // The user leaves the screen as soon as the first chunk is shown.
            MainLoop.run(timeout: downloadSeconds) { !consumer.events.isEmpty }
            consumer.cancelled = true
            task.cancel()
            // Then the server either finishes writing (the download ran on) or fails to.
            MainLoop.run(timeout: downloadSeconds) { finished.current != nil }
        } else {
            MainLoop.run(timeout: downloadSeconds) { finished.current != nil }
            // The last bytes are out: the stream must end within a bound, not make the loop hang.
            MainLoop.run(timeout: endSeconds) { consumer.endedByItself }
            consumer.cancelled = true
            task.cancel()
        }
        MainLoop.run(timeout: endSeconds) { consumer.loopExited }

        run.events = consumer.events
        run.serverDoneAtEvent = consumer.serverDoneAtEvent
        run.onMainThread = consumer.onMainThread
        run.endedByItself = consumer.endedByItself
        run.cancelled = consumer.cancelled
        run.response = finished.current
        let stats = server.stats
        run.requests = stats.requests
        run.completeResponses = stats.responses
        run.writeFailures = stats.writeFailures
        return run
    }

    /// Runs every check against the streams `makeEvents` makes. Call on the main thread: it
    /// turns the main run loop.
    @MainActor
    public static func run(_ makeEvents: @escaping MakeEvents) -> [CheckResult] {
        let plain = run(.plain, makeEvents)
        let cancel = run(.cancel, makeEvents)
        let error500 = run(.error500, makeEvents)
        if let failure = [plain, cancel, error500].compactMap(\.serverFailed).first {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
                    got: failure,
                    hint: 1)
            ]
        }
        return [everyByte(plain), asItArrives(plain), endsAfterLast(plain), cancelStops(cancel), errorEnds(error500)]
    }

    static func everyByte(_ run: Run) -> CheckResult {
        let bytes = run.bytes
        let passed = bytes == run.document && run.failure == nil
        let got: String
        if passed {
            got = localized(
                format: "all %1$@ in order, in %2$@", ja: "%1$@すべてが順番どおりに届きました（%2$@）",
                localized(count: bytes.count, "%d byte", "%d bytes", ja: "%d バイト"),
                localized(count: run.chunks, "%d chunk", "%d chunks", ja: "チャンク %d 個"))
        } else if run.requests == 0 {
            got = localized(
                "no request reached the server: was the task resumed?", ja: "サーバにリクエストが届きませんでした。タスクを resume しましたか？")
        } else if let failure = run.failure {
            got = localized(
                format: "the stream said the download failed: %@", ja: "ストリームがダウンロードの失敗を伝えました:「%@」", failure)
        } else if bytes.isEmpty {
            got = localized(
                format: "no chunk reached the loop within %d s", ja: "%d 秒以内にループにチャンクが届きませんでした", Int(downloadSeconds))
        } else {
            let same = zip(bytes, run.document).prefix { $0 == $1 }.count
            got = localized(
                format: "%1$@ of %2$d, %3$@", ja: "%2$d バイト中 %1$@、%3$@",
                localized(count: bytes.count, "%d byte", "%d bytes", ja: "%d バイト"), run.document.count,
                same == min(bytes.count, run.document.count)
                    ? localized("the first ones in order", ja: "届いた分は順番どおり")
                    : localized(format: "the first difference at byte %d", ja: "最初の違いは %d バイト目", same))
        }
        return everyByteInOrder.result(passed, got: got)
    }

    static func asItArrives(_ run: Run) -> CheckResult {
        let early = run.serverDoneAtEvent.first == false
        let onMain = run.onMainThread.allSatisfy { $0 }
        let passed = run.chunks > 1 && early && onMain
        let got: String
        if run.events.isEmpty {
            got = localized("no event reached the loop", ja: "ループにイベントが届きませんでした")
        } else if !onMain {
            got = localized("the loop ran off the main thread", ja: "ループがメインスレッドの外で動きました")
        } else if !early {
            got = localized(
                "the first event reached the loop only after the server had written the whole feed",
                ja: "最初のイベントがループに届いたのは、サーバがフィードを全部書き終えたあとでした")
        } else if run.chunks < 2 {
            got = localized("the whole feed in one chunk", ja: "フィード全体が 1 つのチャンクで届きました")
        } else {
            got = localized(
                format: "the first of %@ while the server was still writing the feed",
                ja: "%@のうち最初の 1 つが、サーバがまだフィードを書いている間に届きました",
                localized(count: run.chunks, "%d chunk", "%d chunks", ja: "チャンク %d 個"))
        }
        return handedOverAsItArrives.result(passed, got: got)
    }

    static func endsAfterLast(_ run: Run) -> CheckResult {
        let complete = run.bytes == run.document
        let passed = run.endedByItself && complete
        let got: String
        if run.response == nil {
            got = localized(
                format: "the server had not finished writing within %d s", ja: "%d 秒以内にサーバが書き終わりませんでした",
                Int(downloadSeconds))
        } else if !run.endedByItself {
            got = localized(
                format: "the loop still waited %1$d s after the server's last byte (%2$@ in): the stream never ended",
                ja: "サーバの最後のバイトから %1$d 秒たってもループが待っていました（届いたのは%2$@）。ストリームが終わっていません",
                Int(endSeconds), localized(count: run.chunks, "%d chunk", "%d chunks", ja: "チャンク %d 個"))
        } else if !complete {
            got = localized(
                format: "the stream ended after %1$@ of %2$d", ja: "%2$d バイト中 %1$@でストリームが終わりました",
                localized(count: run.bytes.count, "%d byte", "%d bytes", ja: "%d バイト"),
                run.document.count)
        } else {
            got = localized(
                format: "the loop ended after the last of %@", ja: "%@の最後のあとでループが終わりました",
                localized(count: run.chunks, "%d chunk", "%d chunks", ja: "チャンク %d 個"))
        }
        return endsAfterLastChunk.result(passed, got: got)
    }

    static func cancelStops(_ run: Run) -> CheckResult {
        let cutOff = run.writeFailures > 0 && run.completeResponses == 0
        let passed = run.chunks > 0 && run.response != nil && cutOff
        let got: String
        if run.chunks == 0 {
            got = localized(
                format: "no chunk reached the loop within %d s, so nothing was cancelled",
                ja: "%d 秒以内にループにチャンクが届かなかったので、何もキャンセルされませんでした", Int(downloadSeconds))
        } else if run.serverDoneAtEvent.first == true {
            got = localized(
                "the first chunk reached the loop after the server had written the whole feed: nothing left to cancel",
                ja: "最初のチャンクがループに届いたのは、サーバがフィードを全部書き終えたあとでした。キャンセルするものが残っていません")
        } else if let response = run.response {
            got =
                cutOff
                ? localized(
                    format:
                        "the server could not write the rest: %@ on the wire, then the client closed the connection",
                    ja: "サーバは残りを書けませんでした。回線に出たのは %@で、そのあとクライアントが接続を閉じました",
                    localized(count: response.wireBytes, "%d byte", "%d bytes", ja: "%d バイト"))
                : localized(
                    format: "the server wrote the whole feed (%@ on the wire): the download ran on after the cancel",
                    ja: "サーバがフィードを全部書きました（回線に出たのは %@）。キャンセルのあともダウンロードが続いています",
                    localized(count: response.wireBytes, "%d byte", "%d bytes", ja: "%d バイト"))
        } else {
            got = localized(
                format: "the server was still writing %d s after the cancel", ja: "キャンセルから %d 秒たってもサーバが書き続けていました",
                Int(downloadSeconds))
        }
        return cancelStopsDownload.result(passed, got: got)
    }

    static func errorEnds(_ run: Run) -> CheckResult {
        let passed = run.endedByItself && run.chunks == 0 && run.failure != nil
        let got: String
        if run.response == nil {
            got = localized(
                format: "the server had not answered within %d s", ja: "%d 秒以内にサーバが応答しませんでした", Int(downloadSeconds))
        } else if run.chunks > 0 {
            got =
                localized(
                    format: "the error page came as %1$@ (%2$@)", ja: "エラーページが%1$@（%2$@）で届きました",
                    localized(count: run.chunks, "%d chunk", "%d chunks", ja: "チャンク %d 個"),
                    localized(count: run.bytes.count, "%d byte", "%d bytes", ja: "%d バイト"))
                + (run.endedByItself
                    ? ""
                    : localized(
                        format: ", and the stream did not end within %d s", ja: "。ストリームも %d 秒以内に終わりませんでした",
                        Int(endSeconds)))
        } else if run.failure == nil {
            got =
                run.endedByItself
                ? localized("the stream ended without a .failed event", ja: ".failed イベントなしでストリームが終わりました")
                : localized("no event, and the stream did not end", ja: "イベントがなく、ストリームも終わりませんでした")
        } else if !run.endedByItself {
            got = localized(
                format: ".failed, then the stream did not end within %d s", ja: ".failed のあと、%d 秒以内にストリームが終わりませんでした",
                Int(endSeconds))
        } else {
            got = localized(
                format: ".failed(\"%@\"), then the stream ended", ja: ".failed(\"%@\") のあとでストリームが終わりました",
                run.failure ?? "")
        }
        return errorEndsStream.result(passed, got: got)
    }
}
