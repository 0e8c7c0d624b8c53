import ExerciseChecks
import Foundation
import Lesson05Kit
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives here on Linux (built on libcurl)
#endif

/// The cache's clock in the checks: it stands still until the check moves it, so "two minutes
/// later" takes no time (lesson 05's `RevalidatingFetcher` takes its `now` the same way).
final class CheckClock: Sendable {
    /// A lock, not an actor: `now` is a plain function the cache calls with no `await`.
    private let date = Locked(Date(timeIntervalSince1970: 1_767_225_600))

    var now: @Sendable () -> Date { { [date] in date.current } }

    func advance(to seconds: Double) {
        date.withLock { $0 = Date(timeIntervalSince1970: 1_767_225_600 + seconds) }
    }
}

/// The fixture server's side of exercise 05a: the image route and the holds that make the
/// evidence show on any machine. An answer is held (each hold bounded, and only once) until
/// what the check looks for has happened: all callers of the shared image have called, or both
/// images of the pair have been asked for. A right cache then shows it however slow the machine
/// is; a wrong one costs the hold's timeout, once.
///
/// What the server received and sent is counted by the server itself (`ServerStats`): requests
/// per path, 304s. The route keeps no count of its own, because the server may call a route more
/// than once for one request (it looks for the first route that answers); all it records is
/// idempotent: which validators came, and each pair image's first verdict.
// @unchecked: every `var` is read and written only with `condition` (an NSCondition) locked.
final class ImageRoom: @unchecked Sendable {
    private let condition = NSCondition()
    private var callers = 0
    private var expectedCallers = 0
    private var sharedHeld = false
    /// Per image, the If-None-Match values its requests carried ("none" for none).
    private var validators: [String: Set<String>] = [:]
    private var pairAsked: Set<String> = []
    /// Per image of the pair: whether both had been asked for when its answer was first sent.
    private var pairAnswers: [String: Bool] = [:]

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Waits (at most `timeout` seconds) until `done` holds; returns whether it does.
    private func wait(timeout: Double, until done: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done() {
            if !condition.wait(until: deadline) { return done() }
        }
        return true
    }

    func expect(callers count: Int) { locked { expectedCallers = count } }

    /// A caller is about to call the cache for the shared image.
    func arrive() {
        locked {
            callers += 1
            condition.broadcast()
        }
    }

    func clearValidators() { locked { validators = [:] } }
    var ifNoneMatch: [String: Set<String>] { locked { validators } }
    var pair: [String: Bool] { locked { pairAnswers } }

    /// The route for `/images/<name>`, on a server thread.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let name = String(request.path.dropFirst(Exercise05aChecks.prefix.count))
        let (holdShared, holdPair) = locked { () -> (Bool, Bool) in
            validators[name, default: []].insert(request.header("if-none-match") ?? "none")
            let holdShared = name == Exercise05aChecks.shared && !sharedHeld
            let holdPair = Exercise05aChecks.pair.contains(name) && pairAnswers[name] == nil
            if holdPair {
                pairAsked.insert(name)
                condition.broadcast()
            }
            return (holdShared, holdPair)
        }
        let hold = Exercise05aChecks.holdSeconds
        if holdShared {
            _ = wait(timeout: hold) { callers >= expectedCallers }
            locked { sharedHeld = true }
        }
        if holdPair {
            let both = wait(timeout: hold) { pairAsked.count == Exercise05aChecks.pair.count }
            locked { pairAnswers[name] = pairAnswers[name] ?? both }
        }
        return HTTPResponse(contentType: "image/png", body: Exercise05aChecks.image(name), compressible: false)
    }
}

/// The checks of exercise 05a (Exercises/05a-etag-cache-actor): a cache actor that uses a
/// fresh answer with no request, revalidates a stale one with If-None-Match, and sends one
/// request per image however many callers ask at once. Every check reads the server's counts.
public enum Exercise05aChecks {
    /// The learner's cache, made once per scenario, asked for one URL's bytes.
    public typealias Fetch = @Sendable (URL) async throws -> Data
    public typealias MakeCache = @Sendable (ImageClient, @escaping @Sendable () -> Date) -> Fetch

    static let prefix = "/images/"
    static let shared = "shared.png"
    static let pair = ["left.png", "right.png"]
    static let flaky = "flaky.png"
    static let callers = 20
    static let maxAge = 60
    /// Every request waits this long on the server, so callers meet while one is in flight.
    static let latency = 0.05
    /// The longest the server holds an answer for its evidence.
    static let holdSeconds = 2.0

    /// The ETag the server sends for the shared image: what a revalidation must send back.
    static let expectedETag = "\"\(fnv1a(image(shared)))\""

    // The checks, in the order they report: each declared once, in both languages.
    static let sharedRequest = Check(
        "\(callers) calls at once for one image send one request", ja: "1 つの画像を同時に \(callers) 回呼んでも、リクエストは 1 回",
        wanted: "\(callers) calls for \(shared) at once: the server gets 1 request, and all \(callers) get its bytes",
        ja: "\(shared) を同時に \(callers) 回呼ぶと、サーバに届くリクエストは 1 回で、\(callers) 回とも同じバイト列を受け取る", hint: 3)
    static let freshNoRequest = Check(
        "a fresh image costs no request", ja: "新しい画像はリクエストなしで返る",
        wanted: "30 s later (max-age=\(maxAge)): its bytes from the cache, 0 requests",
        ja: "30 秒後（max-age=\(maxAge)）: キャッシュからバイト列が返り、リクエストは 0 回", hint: 1)
    static let staleRevalidated = Check(
        "a stale image is revalidated: If-None-Match, a 304, the same bytes",
        ja: "古くなった画像は再検証する: If-None-Match を付け、304 を受けて、同じバイト列を返す",
        wanted: "120 s later: 1 request with If-None-Match: \(expectedETag), answered 304, and its bytes",
        ja: "120 秒後: If-None-Match: \(expectedETag) 付きのリクエストが 1 回、答えは 304、同じバイト列が返る", hint: 2)
    static let maxAgeAgain = Check(
        "a 304 starts max-age again", ja: "304 を受けたら max-age を数え直す",
        wanted: "30 s after the 304: its bytes from the cache, 0 requests",
        ja: "304 の 30 秒後: キャッシュからバイト列が返り、リクエストは 0 回", hint: 2)
    static let pairTogether = Check(
        "different images are fetched at the same time", ja: "別々の画像は同時に取得する",
        wanted:
            "\(pair.joined(separator: " and ")) asked at once: the server has both requests before it answers either",
        ja: "\(pair.joined(separator: "、")) を同時に頼むと、サーバはどちらかに答える前に両方のリクエストを受け取っている", hint: 3)
    static let failureNotKept = Check(
        "a failed request is not kept: the next call asks again", ja: "失敗したリクエストは覚えず、次の呼び出しでまた取りにいく",
        wanted:
            "the first request for \(flaky) gets a 503 and the call throws; the next call sends a new request and gets its bytes",
        ja: "\(flaky) への最初のリクエストは 503 で、呼び出しはエラーを投げる。次の呼び出しは新しいリクエストを送り、バイト列を受け取る", hint: 3)
    public static let all = [
        sharedRequest, freshNoRequest, staleRevalidated, maxAgeAgain, pairTogether, failureNotKept,
    ]

    /// The bytes of image `name`: its own, so a caller that got another image's shows it.
    static func image(_ name: String) -> [UInt8] {
        Array(String(repeating: "image \(name);", count: 64).utf8)
    }

    /// `fetch(url)` from `count` tasks at once, each counted by `room` before it calls; their answers.
    static func callAtOnce(_ fetch: @escaping Fetch, _ url: URL, count: Int, room: ImageRoom) async -> [Answer] {
        await withTaskGroup(of: Answer.self) { group in
            for _ in 0..<count {
                group.addTask {
                    room.arrive()
                    return await call(fetch, url)
                }
            }
            var answers: [Answer] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
    }

    struct ImageCallError: Error {
        var text: String
    }

    /// What one call gave: the bytes, or what it threw, in words.
    typealias Answer = Result<Data, ImageCallError>

    static func call(_ fetch: Fetch, _ url: URL) async -> Answer {
        do {
            return .success(try await fetch(url))
        } catch {
            return .failure(ImageCallError(text: "\(error)"))
        }
    }

    /// Whether the call gave the image's own bytes.
    static func isRight(_ answer: Answer, wanted name: String) -> Bool {
        if case .success(let data) = answer { return Array(data) == image(name) }
        return false
    }

    static func describe(_ answer: Answer, wanted name: String) -> String {
        switch answer {
        case .success(let data):
            Array(data) == image(name)
                ? localized("its bytes", ja: "その画像のバイト列")
                : localized(format: "other bytes (%d bytes)", ja: "別のバイト列（%d バイト）", data.count)
        case .failure(let error): localized(format: "an error: %@", ja: "エラー:「%@」", error.text)
        }
    }

    /// Runs every check against caches made by `makeCache`.
    public static func run(_ makeCache: @escaping MakeCache) async -> [CheckResult] {
        let room = ImageRoom()
        let server = FixtureServer(
            knobs: ServerKnobs(latencySeconds: latency, gzip: false, etags: true, maxAgeSeconds: maxAge),
            routes: [(prefix, { @Sendable request, _ in room.answer(request) })])
        let base: URL
        do { base = try server.start() } catch {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
                    got: "\(error)", hint: 1)
            ]
        }
        defer { server.stop() }
        let client = ImageClient(timeout: 5)
        defer { client.invalidate() }
        func url(_ name: String) -> URL { base.appendingPathComponent("images/\(name)") }
        func requests(_ name: String) -> Int { server.stats.requestsByPath[prefix + name] ?? 0 }

        // 1: 20 callers at once for one image; the server holds its answer until all have called.
        let clock = CheckClock()
        let fetch = makeCache(client, clock.now)
        room.expect(callers: callers)
        let atOnce = await callAtOnce(fetch, url(shared), count: callers, room: room)
        let requestsAtOnce = requests(shared)
        let wrongAtOnce = atOnce.filter { !isRight($0, wanted: shared) }

        // 2: 30 s later, within max-age: from the cache, no request.
        clock.advance(to: 30)
        let fresh = await call(fetch, url(shared))
        let requestsFresh = requests(shared) - requestsAtOnce

        // 3: 120 s later, past max-age whenever it was stored: one request with the ETag, a 304.
        clock.advance(to: 120)
        let notModifiedBefore = server.stats.notModified
        room.clearValidators()
        let stale = await call(fetch, url(shared))
        let requestsStale = requests(shared) - requestsAtOnce - requestsFresh
        let sentValidators = room.ifNoneMatch[shared] ?? []
        // The client has its 304 a moment before the server thread that sent it counts it. The
        // server sends a 304 only for an If-None-Match that matches its ETag.
        if sentValidators.contains(expectedETag) {
            server.waitForStats(timeout: holdSeconds) { $0.notModified > notModifiedBefore }
        }
        let notModified = server.stats.notModified - notModifiedBefore

        // 4: 30 s after the 304: it started max-age again, so no request.
        clock.advance(to: 150)
        let afterRevalidation = await call(fetch, url(shared))
        let requestsAfter = requests(shared) - requestsAtOnce - requestsFresh - requestsStale

        // 5: two images at once, on a new cache; each answer waits until both were asked for.
        let pairFetch = makeCache(client, CheckClock().now)
        async let left = call(pairFetch, url(pair[0]))
        async let right = call(pairFetch, url(pair[1]))
        let pairAnswers = await [left, right]
        let together = room.pair
        let pairRight = zip(pairAnswers, pair).allSatisfy { isRight($0, wanted: $1) }

        // 6: the first request for flaky.png fails with a 503 (the server's own fault); the next
        // call must ask again.
        let flakyFetch = makeCache(client, CheckClock().now)
        server.setFault(.status(503), forPathPrefix: prefix + flaky)
        let failed = await call(flakyFetch, url(flaky))
        server.setFault(nil, forPathPrefix: prefix + flaky)
        let retried = await call(flakyFetch, url(flaky))
        let flakyRequests = requests(flaky)

        var failedFirst = false
        if case .failure = failed { failedFirst = true }
        return [
            sharedRequest.result(
                requestsAtOnce == 1 && wrongAtOnce.isEmpty,
                got: localized(
                    format: "the server got %@", ja: "サーバに届いたのは%@",
                    localized(count: requestsAtOnce, "%d request", "%d requests", ja: "リクエスト %d 回"))
                    + (wrongAtOnce.isEmpty
                        ? localized(", all got its bytes", ja: "、すべての呼び出しがその画像のバイト列を受け取りました")
                        : localized(
                            format: "; %1$d calls got %2$@", ja: "。%1$d 回の呼び出しが受け取ったのは%2$@", wrongAtOnce.count,
                            describe(wrongAtOnce[0], wanted: shared)))),
            freshNoRequest.result(
                requestsFresh == 0 && isRight(fresh, wanted: shared),
                got: localized(
                    format: "%1$@, and %2$@", ja: "%1$@。結果は%2$@",
                    localized(count: requestsFresh, "%d request", "%d requests", ja: "リクエスト %d 回"),
                    describe(fresh, wanted: shared))),
            staleRevalidated.result(
                requestsStale == 1 && notModified == 1 && isRight(stale, wanted: shared),
                got: localized(
                    format: "%1$@, %2$@, %3$@ sent, and %4$@", ja: "%1$@、%2$@、送られた 304 は %3$@、返ったのは%4$@",
                    localized(count: requestsStale, "%d request", "%d requests", ja: "リクエスト %d 回"),
                    sentValidators.isEmpty
                        ? localized("no If-None-Match", ja: "If-None-Match なし")
                        : "If-None-Match: " + sentValidators.sorted().joined(separator: ", "),
                    localized(count: notModified, "%d 304", "%d 304s", ja: "%d 回"), describe(stale, wanted: shared))),
            maxAgeAgain.result(
                requestsAfter == 0 && isRight(afterRevalidation, wanted: shared),
                got: localized(
                    format: "%1$@, and %2$@", ja: "%1$@。結果は%2$@",
                    localized(count: requestsAfter, "%d request", "%d requests", ja: "リクエスト %d 回"),
                    describe(afterRevalidation, wanted: shared))),
            pairTogether.result(
                pair.allSatisfy { together[$0] == true } && pairRight,
                got: pair.allSatisfy { together[$0] == true }
                    ? (pairRight
                        ? localized("both requests in before the answers", ja: "答える前に両方のリクエストが届きました")
                        : zip(pairAnswers, pair).map { "\($1): \(describe($0, wanted: $1))" }.joined(separator: "; "))
                    : pair.map { name in
                        together[name] == nil
                            ? localized(format: "%@: no request", ja: "%@: リクエストなし", name)
                            : together[name] == true
                                ? localized(format: "%@: answered with both in", ja: "%@: 両方が届いてから答えました", name)
                                : localized(
                                    format: "%@: answered before the other request came",
                                    ja: "%@: もう一方のリクエストが届く前に答えました", name)
                    }.joined(separator: "; ")),
            failureNotKept.result(
                failedFirst && flakyRequests == 2 && isRight(retried, wanted: flaky),
                got: localized(
                    format: "%1$@, the server got %2$@, the next call got %3$@",
                    ja: "%1$@。サーバに届いたのは%2$@、次の呼び出しが受け取ったのは%3$@",
                    failedFirst
                        ? localized("the first call threw", ja: "最初の呼び出しはエラーを投げました")
                        : localized("the first call did not throw", ja: "最初の呼び出しはエラーを投げませんでした"),
                    localized(count: flakyRequests, "%d request", "%d requests", ja: "リクエスト %d 回"),
                    describe(retried, wanted: flaky))),
        ]
    }
}
