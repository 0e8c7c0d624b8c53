import Dispatch
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks of exercise 01 (Exercises/01-parse-operation): a parse step that depends on
/// its fetch and passes a failed or cancelled fetch on without parsing.
public enum Exercise01Checks {
    /// Makes a parse step of `source` whose parse decodes an `AccountProfile`.
    public typealias MakeStep = (
        _ source: CheckFetch, _ parse: @escaping @Sendable (Data) throws -> AccountProfile
    ) -> Operation

    /// The learner's `ParseStepFailure`, as the driver hands it over.
    public enum StepFailure: Error, Equatable {
        case sourceFailed(String)
        case sourceCancelled
    }

    public static let latency = 0.05
    /// Fetch/step pairs of the last check.
    public static let pairCount = 20

    // The checks, in the order they report: each declared once, in both languages.
    static let waitsForFetch = Check(
        "waits for its fetch", ja: "取得が終わるのを待つ",
        wanted: "the step is not ready before its fetch has run, and its output is the profile of aoi",
        ja: "取得が終わる前はステップが実行可能（ready）にならず、ステップの output が aoi のプロフィールになる", hint: 1)
    static let failurePassedOn = Check(
        "a failed fetch is passed on", ja: "取得の失敗を引き継ぐ",
        wanted: "after HTTP 500: .sourceFailed(\"... 500 ...\") and parse never called",
        ja: "HTTP 500 のあと .sourceFailed(\"... 500 ...\") になり、parse は一度も呼ばれない", hint: 2)
    static let cancelPassedOn = Check(
        "a cancelled fetch is passed on", ja: "取得のキャンセルを引き継ぐ",
        wanted: "fetch cancelled before it ran: .sourceCancelled and parse never called",
        ja: "実行前にキャンセルされた取得で .sourceCancelled になり、parse は一度も呼ばれない", hint: 2)
    static let runsOnce = Check(
        "each step runs once", ja: "どのステップも 1 回だけ実行される",
        wanted: "\(pairCount) fetch/step pairs at width 2: \(pairCount) profiles, \(pairCount) parse calls",
        ja: "幅 2 で取得とステップの組を \(pairCount) 組: プロフィール \(pairCount) 件、parse の呼び出し \(pairCount) 回", hint: 3)
    public static let all = [waitsForFetch, failurePassedOn, cancelPassedOn, runsOnce]

    /// Runs every check against a step implementation. `output` reads a step's result (with
    /// the learner's failures as `StepFailure`).
    public static func run(makeStep: MakeStep, output: @escaping (Operation) -> Result<AccountProfile, any Error>?)
        -> [CheckResult]
    {
        let server = FixtureServer(knobs: ServerKnobs(latencySeconds: latency))
        let baseURL: URL
        do { baseURL = try server.start() } catch {
            return [
                CheckResult(
                    name: "fixture server starts", ja: "フィクスチャサーバが起動する", passed: false,
                    expected: localized("a server on 127.0.0.1", ja: "127.0.0.1 で動くサーバ"),
                    got: "\(error)", hint: 1)
            ]
        }
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 10)
        let userURL = baseURL.appendingPathComponent("api/user")
        let expected = AccountAPI.profile(for: "aoi")
        let token = AccountAPI.token(for: "aoi")
        let parses = Locked(0)  // parse closures run on queue threads
        let parse: @Sendable (Data) throws -> AccountProfile = { data in
            parses.withLock { $0 += 1 }
            return try JSONDecoder().decode(AccountProfile.self, from: data)
        }
        func fetch(fault: String? = nil) -> CheckFetch {
            CheckFetch(
                fetcher: fetcher,
                url: fault.map { userURL.appending(queryItems: [URLQueryItem(name: "fault", value: $0)]) } ?? userURL,
                token: token)
        }
        func describe(_ result: Result<AccountProfile, any Error>?) -> String {
            switch result {
            case nil:
                localized(
                    "no output (the step did not run, or stored nothing)",
                    ja: "output がありません（ステップが実行されなかったか、何も保存しませんでした）")
            case .success(let profile)?: localized(format: "the profile of %@", ja: "%@ のプロフィール", profile.name)
            case .failure(let error)?: localized(format: "failure %@", ja: "失敗:「%@」", "\(error)")
            }
        }

        // 1. Waits for its fetch: queued together on a queue of width 2, step first. Before the
        // fetch has run, the step must not be ready (it depends on the fetch): no stopwatch
        // decides whether it waited, so a busy machine cannot make a step that does not wait pass.
        let source1 = fetch()
        let step1 = makeStep(source1, parse)
        let readyTooSoon = step1.isReady
        let finished1 = runOnQueue([step1, source1], width: 2)
        let got1 = output(step1)
        let waited = !readyTooSoon && finished1 && (try? got1?.get()) == expected

        // 2. A failed fetch (HTTP 500) is passed on, parse never called.
        parses.withLock { $0 = 0 }
        let source2 = fetch(fault: "500")
        let step2 = makeStep(source2, parse)
        let finished2 = runOnQueue([step2, source2], width: 2)
        let got2 = output(step2)
        let parsesAfterFailure = parses.current
        var passedOn = false
        if case .failure(let error as StepFailure)? = got2, case .sourceFailed(let why) = error,
            why.contains("500")
        {
            passedOn = true
        }

        // 3. A cancelled fetch is passed on, parse never called.
        parses.withLock { $0 = 0 }
        let source3 = fetch()
        let step3 = makeStep(source3, parse)
        source3.cancel()
        let finished3 = runOnQueue([step3, source3], width: 2)
        let got3 = output(step3)
        let parsesAfterCancel = parses.current
        var cancelledOn = false
        if case .failure(let error as StepFailure)? = got3, error == .sourceCancelled { cancelledOn = true }

        // 4. Many pairs: every step has an output, every parse ran exactly once.
        parses.withLock { $0 = 0 }
        // The fetches answer the profile without the network: what counts here is how often each
        // step parses. (Two URLSession requests in flight at once cost about 0.15 s each on
        // Linux, whatever the server's latency: measured, and not what this check is about.)
        let body = (try? JSONEncoder().encode(expected)) ?? Data()
        let pairs = (0..<pairCount).map { _ -> (CheckFetch, Operation) in
            let source = CheckFetch(fetcher: fetcher, url: userURL, token: token, canned: body)
            return (source, makeStep(source, parse))
        }
        let finished4 = runOnQueue(pairs.flatMap { [$0.1, $0.0] }, width: 2)
        let good = pairs.filter { (try? output($0.1)?.get()) == expected }.count
        let parsesMany = parses.current

        return [
            waitsForFetch.result(
                waited,
                got: !finished1
                    ? localized("the queue did not finish within 10 s", ja: "キューが 10 秒以内に終わりませんでした")
                    : readyTooSoon
                        ? localized(
                            format: "the step was ready to run before its fetch had run; then %@",
                            ja: "取得が終わる前にステップが実行可能になりました。そのあと %@", describe(got1))
                        : describe(got1)),
            failurePassedOn.result(
                finished2 && passedOn && parsesAfterFailure == 0,
                got: localized(
                    format: "%1$@, parse called %2$@", ja: "%1$@、parse の呼び出しは %2$@", describe(got2),
                    localized(count: parsesAfterFailure, "%d time", "%d times", ja: "%d 回"))),
            cancelPassedOn.result(
                finished3 && cancelledOn && parsesAfterCancel == 0,
                got: localized(
                    format: "%1$@, parse called %2$@", ja: "%1$@、parse の呼び出しは %2$@", describe(got3),
                    localized(count: parsesAfterCancel, "%d time", "%d times", ja: "%d 回"))),
            runsOnce.result(
                finished4 && good == pairCount && parsesMany == pairCount,
                got: localized(
                    format: "%1$@, %2$@", ja: "%1$@、%2$@",
                    localized(count: good, "%d profile", "%d profiles", ja: "プロフィール %d 件"),
                    localized(count: parsesMany, "%d parse call", "%d parse calls", ja: "parse の呼び出し %d 回"))),
        ]
    }

    /// Queues `operations` on a fresh queue and waits (at most 10 s) for all of them.
    static func runOnQueue(_ operations: [Operation], width: Int) -> Bool {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = width
        queue.addOperations(operations, waitUntilFinished: false)
        let done = DispatchSemaphore(value: 0)
        queue.addBarrierBlock { done.signal() }
        return done.wait(timeout: .now() + 10) == .success
    }
}
