import Foundation
import Lesson01Kit
import Testing
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixture server's account routes (AccountAPI.swift in the core), refusals included.
@Suite struct AccountAPITests {
    @Test func loginThenGetUser() throws {
        let api = try AccountFixture(latency: 0)
        let token = try AccountParsing.token(
            try NoThreadAccount.fetchBlocking(api.plan.loginRequest(), session: api.session).get())
        #expect(token == AccountAPI.token(for: "aoi"))
        let profile = try AccountParsing.profile(
            try NoThreadAccount.fetchBlocking(api.plan.userRequest(token: token), session: api.session).get())
        #expect(profile == AccountAPI.profile(for: "aoi"))
    }

    @Test func refusals() throws {
        let api = try AccountFixture(latency: 0)
        let wrongPassword = api.request("/api/login?user=aoi&password=nope")
        let noToken = api.request("/api/user")
        let otherToken = api.plan.userRequest(token: "tok-made-up")
        let noSuchItem = api.request("/api/items/0")
        for (request, status) in [(wrongPassword, 401), (noToken, 401), (otherToken, 401), (noSuchItem, 404)] {
            guard case .failure(.httpStatus(let code, _)) = NoThreadAccount.fetchBlocking(request, session: api.session)
            else {
                Issue.record("\(request.url!) was not refused")
                continue
            }
            #expect(code == status, "\(request.url!)")
        }
    }

    @Test func tokensDifferPerUser() {
        let tokens = Set(FixtureAPI.userNames.map(AccountAPI.token(for:)))
        #expect(tokens.count == FixtureAPI.userNames.count)
    }
}
