import Foundation
import Lesson01Kit
import Testing
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FetchOperation and ParseOperation on their own, against a real fixture server.
@Suite struct FetchOperationTests {
    @Test func aFetchDeliversTheBodyAndItsParseReceivesIt() throws {
        let api = try AccountFixture()
        let fetch = FetchOperation(session: api.session, request: api.request("/api/items/7"))
        let parse = ParseOperation(parsing: fetch, parse: AccountParsing.item)
        #expect(runOnQueue([parse, fetch], width: 2))  // parse queued first: the dependency decides
        #expect(try parse.result?.get() == AccountAPI.item(id: 7))
        #expect(try fetch.result?.get().statusCode == 200)
    }

    @Test func dependencyOrderAlwaysHolds() throws {
        let api = try AccountFixture(latency: 0.005)
        let log = EventLog()
        var operations: [Operation] = []
        for chain in 0..<20 {
            let login = FetchOperation(session: api.session, request: api.plan.loginRequest())
            let token = ParseOperation(parsing: login) { body in
                // The fetch must be finished (result in) before its parse runs.
                log.add(
                    login.isFinished && login.result != nil
                        ? "token \(chain) parsed" : "token \(chain) parsed too early")
                return try AccountParsing.token(body)
            }
            let user = FetchOperation(session: api.session) { [plan = api.plan] in
                log.add("user \(chain) requested")
                return try plan.userRequest(token: ThreadedAccount.value(of: token))
            }
            user.addDependency(token)
            let profile = ParseOperation(parsing: user, parse: AccountParsing.profile)
            operations += [profile, user, token, login].shuffled()
        }
        #expect(runOnQueue(operations, width: 4))
        for chain in 0..<20 {
            let order = ["token \(chain) parsed", "user \(chain) requested"].map(log.index(of:))
            #expect(order.allSatisfy { $0 != nil }, "chain \(chain): \(order)")
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "chain \(chain) ran out of order")
        }
        for case let profile as ParseOperation<AccountProfile> in operations {
            #expect(try profile.result?.get() == AccountAPI.profile(for: "aoi"))
        }
    }

    @Test func theWidthIsNeverExceeded() throws {
        let api = try AccountFixture(latency: 0.01)
        let gauge = ConcurrencyGauge()
        let operations = (1...100).map { id in
            let fetch = FetchOperation(session: api.session, request: api.request("/api/items/\(id)"))
            fetch.gauge = gauge
            return fetch
        }
        #expect(runOnQueue(operations, width: 4, timeout: 60))
        #expect(gauge.most <= 4, "saw \(gauge.most) fetches executing at once with width 4")
        #expect(gauge.most >= 2, "the queue never overlapped two fetches: is the gauge counting?")
        #expect(gauge.now == 0)
        #expect(operations.allSatisfy { (try? $0.result?.get()) != nil })
        #expect(api.server.stats.requests(under: "/api/items/") == 100)
    }

    @Test func cancelledBeforeStartFinishesAtOnceWithoutARequest() throws {
        let api = try AccountFixture()
        let gauge = ConcurrencyGauge()
        let calls = CallCounter()
        let fetch = FetchOperation(session: api.session, request: api.request("/api/items/1"))
        fetch.gauge = gauge
        fetch.onFinish = { _ in calls.hit("onFinish") }
        fetch.cancel()
        #expect(!fetch.isFinished, "cancel() alone does not finish an operation that has not started")
        #expect(runOnQueue([fetch], width: 1))
        #expect(fetch.isFinished)
        #expect(gauge.most == 0, "it was never executing")
        #expect(fetch.result?.isCancelled == true)
        #expect(calls["onFinish"] == 1)
        #expect(api.server.stats.requests == 0, "no request reached the server")
    }

    @Test func cancelledMidFlightFinishesPromptlyOnceWithNoResult() throws {
        let api = try AccountFixture()
        let slow = 5.0
        let calls = CallCounter()
        let finished = DispatchSemaphore(value: 0)
        let fetch = FetchOperation(session: api.session, request: api.request("/api/items/3?latency=\(slow)"))
        fetch.onFinish = { _ in
            calls.hit("onFinish")
            finished.signal()
        }
        let blockRan = DispatchSemaphore(value: 0)
        fetch.completionBlock = {
            calls.hit("completionBlock")
            blockRan.signal()
        }
        let parse = ParseOperation(parsing: fetch, parse: AccountParsing.item)
        let parsed = DispatchSemaphore(value: 0)
        parse.onFinish = { _ in
            calls.hit("parse")
            parsed.signal()
        }
        let queue = OperationQueue()
        queue.addOperations([fetch, parse], waitUntilFinished: false)
        #expect(eventually { api.server.stats.requests == 1 }, "the request never reached the server")
        #expect(fetch.isExecuting)
        let clock = Stopwatch()
        fetch.cancel()
        #expect(finished.wait(timeout: .now() + slow) == .success)
        #expect(clock.elapsed < 0.2 * slow, "took \(clock.elapsed) s to finish after cancel()")
        // The parse's onFinish runs from its completion block, which may come after a barrier.
        #expect(parsed.wait(timeout: .now() + 10) == .success)
        #expect(blockRan.wait(timeout: .now() + 10) == .success)
        #expect(fetch.result?.isCancelled == true)
        #expect(parse.result.map { (try? $0.get()) == nil } == true, "a cancelled fetch delivers nothing")
        #expect(calls.all == ["onFinish": 1, "completionBlock": 1, "parse": 1])
    }

    @Test(arguments: [Fault.status(500), .drop])
    func aFailingRequestFinishesWithAnErrorAndDependantsSeeIt(_ fault: Fault) throws {
        let api = try AccountFixture()
        api.server.setFault(fault, forPathPrefix: "/api/login")
        let login = FetchOperation(session: api.session, request: api.plan.loginRequest())
        let token = ParseOperation(parsing: login, name: "token", parse: AccountParsing.token)
        let user = FetchOperation(session: api.session) { [plan = api.plan] in
            try plan.userRequest(token: ThreadedAccount.value(of: token))
        }
        user.addDependency(token)
        let profile = ParseOperation(parsing: user, parse: AccountParsing.profile)
        #expect(runOnQueue([login, token, user, profile], width: 2))
        switch (fault, login.result) {
        case (.status(500), .failure(.httpStatus(500, _))?): break
        case (.drop, .failure(.transport)?): break
        default: Issue.record("login with fault \(fault) ended as \(String(describing: login.result))")
        }
        // Each dependant fails with the login's own failure, passed on.
        guard case .failure(let why)? = token.result else {
            Issue.record("token: \(String(describing: token.result))")
            return
        }
        #expect("\(why)".contains(fault == .drop ? "reset" : "HTTP 500"), "\(why)")
        guard case .failure(why)? = user.result, case .failure(why)? = profile.result else {
            Issue.record("user \(String(describing: user.result)), profile \(String(describing: profile.result))")
            return
        }
        #expect(api.server.stats.requests(under: "/api/user") == 0, "get-user must not be sent without a token")
    }

    @Test func everyCompletionPathRunsExactlyOnce() throws {
        let api = try AccountFixture(latency: 0.01)
        let calls = CallCounter()
        var operations: [FetchOperation] = []
        let blocks = DispatchGroup()  // onFinish and completion blocks may run after the queue's barrier
        for id in 1...120 {
            // Four kinds: fine, HTTP 500, slow and cancelled mid-flight, cancelled before start.
            let path =
                switch id % 4 {
                case 1: "/api/items/\(id)?fault=500"
                case 2: "/api/items/\(id)?latency=0.3"
                default: "/api/items/\(id)"
                }
            let fetch = FetchOperation(session: api.session, request: api.request(path))
            blocks.enter()
            fetch.onFinish = { _ in
                calls.hit("finish \(id)")
                blocks.leave()
            }
            blocks.enter()
            fetch.completionBlock = {
                calls.hit("block \(id)")
                blocks.leave()
            }
            if id % 4 == 3 { fetch.cancel() }
            operations.append(fetch)
        }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 8
        queue.addOperations(operations, waitUntilFinished: false)
        // Cancel the slow ones while they may be queued, executing or finishing.
        for fetch in operations.enumerated() where fetch.offset % 4 == 1 { fetch.element.cancel() }
        let done = DispatchSemaphore(value: 0)
        queue.addBarrierBlock { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(blocks.wait(timeout: .now() + 10) == .success)
        for id in 1...120 {
            #expect(
                calls["finish \(id)"] == 1 && calls["block \(id)"] == 1,
                "operation \(id): \(calls["finish \(id)"]) onFinish, \(calls["block \(id)"]) completion blocks")
        }
        // A second start of a finished operation is refused: nothing runs again.
        operations[0].start()
        #expect(calls["finish 1"] == 1)
    }

    @Test func startingTwiceIsRefused() throws {
        let api = try AccountFixture(latency: 0.2)
        let calls = CallCounter()
        let finished = DispatchSemaphore(value: 0)
        let fetch = FetchOperation(session: api.session, request: api.request("/api/items/2"))
        fetch.onFinish = { _ in
            calls.hit("finish")
            finished.signal()
        }
        fetch.start()
        fetch.start()  // while executing
        #expect(finished.wait(timeout: .now() + 10) == .success)
        fetch.start()  // after finishing
        #expect(calls["finish"] == 1)
        #expect(api.server.stats.requests == 1)
    }

    @Test func aDataURLGivesAPlainURLResponseAndIsHandled() throws {
        let api = try AccountFixture()
        let fetch = FetchOperation(session: api.session, request: URLRequest(url: AccountPlan.welcomeURL))
        #expect(runOnQueue([fetch], width: 1))
        let body = try #require(try fetch.result?.get())
        #expect(body.statusCode == nil, "not HTTP: no status code")
        #expect(String(data: body.data, encoding: .utf8) == AccountPlan.welcomeText)
    }

    @Test func theParseHookCanFailAFetch() throws {
        let api = try AccountFixture()
        let text = JSONFetchOperation(session: api.session, request: api.request("/health"))
        let json = JSONFetchOperation(session: api.session, request: api.request("/api/items/1"))
        #expect(runOnQueue([text, json], width: 2))
        let health = api.request("/health").url?.absoluteString ?? ""
        #expect(text.result == .failure(.malformed("expected JSON, got text/plain", url: health)))
        #expect((try? json.result?.get()) != nil)
    }

    @Test func aFileURLIsRefusedByLinuxURLSession() throws {
        let api = try AccountFixture()
        let fetch = FetchOperation(
            session: api.session, request: URLRequest(url: URL(fileURLWithPath: "/etc/hostname")))
        #expect(runOnQueue([fetch], width: 1))
        #if os(Linux)
            guard case .failure(.transport(let reason, _))? = fetch.result else {
                Issue.record("file:// gave \(String(describing: fetch.result))")
                return
            }
            #expect(reason.contains("does not load this kind of URL"), "NSURLErrorUnsupportedURL (-1002), in words")
        #else
            #expect(fetch.result != nil)
        #endif
    }

    @Test func withoutStateAnnouncementsTheQueueNeverLearnsItFinished() {
        let outcome = WhyNotify.demonstrate(seconds: 0.5)
        #expect(outcome.finishedFlag, "the operation did finish")
        #expect(!outcome.completionBlockRan)
        #expect(!outcome.dependantRan)
        #expect(outcome.operationsStillInQueue == 2)
    }

    @Test func withAnnouncementsTheSameSetupCompletes() throws {
        let api = try AccountFixture()
        let fetch = FetchOperation(session: api.session, request: URLRequest(url: AccountPlan.welcomeURL))
        let ran = CallCounter()
        let dependant = BlockOperation { ran.hit("dependant") }
        dependant.addDependency(fetch)
        #expect(runOnQueue([fetch, dependant], width: 1, timeout: 5))
        #expect(ran["dependant"] == 1)
    }
}
