import Foundation
import WorkshopCore

/// The "account" part of the fixture API: the login -> get-user flow of the Operation article
/// ("NSOperation を使って外部 API から非同期に結果を取得してみる", 2010-06-19), plus small
/// resources to fetch several at a time.
///
/// - `GET /api/login?user=NAME&password=PASSWORD`: `{"token": "..."}`; a wrong password or an
///   unknown user gives 401. The password of every user is `AccountAPI.password`.
/// - `GET /api/user` with `Authorization: Bearer TOKEN`: that user's profile as JSON
///   (`AccountProfile`); no token or a wrong one gives 401.
/// - `GET /api/items/N` (N in 1...10000): one small JSON document (`AccountItem`).
///
/// Everything is deterministic: the same request always gets the same bytes.
public enum AccountAPI {
    /// Every fixture user's password (it is a fixture, not a secret).
    public static let password = "sakusaku"

    public static let routes: [(prefix: String, route: FixtureServer.Route)] = [
        (
            "/api/login",
            { request, _ in
                guard let user = request.query["user"], FixtureAPI.userNames.contains(user),
                    request.query["password"] == password
                else {
                    return .text(401, "unknown user or wrong password")
                }
                return json(["token": token(for: user)])
            }
        ),
        (
            "/api/user",
            { request, _ in
                let bearer = request.header("authorization").flatMap { value -> String? in
                    value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : nil
                }
                guard let bearer, let user = FixtureAPI.userNames.first(where: { token(for: $0) == bearer }) else {
                    return .text(401, "get-user needs 'Authorization: Bearer TOKEN' with a token from /api/login")
                }
                return json(profile(for: user))
            }
        ),
        (
            "/api/items/",
            { request, _ in
                guard let id = Int(request.path.dropFirst("/api/items/".count)), (1...10_000).contains(id) else {
                    return .text(404, "items are /api/items/N with N in 1...10000")
                }
                return json(item(id: id))
            }
        ),
    ]

    /// The token `/api/login` hands out for a user: stable, and different for every user.
    public static func token(for user: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ("token:" + user).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "tok-" + String(hash, radix: 16)
    }

    public static func profile(for user: String) -> AccountProfile {
        let index = FixtureAPI.userNames.firstIndex(of: user) ?? 0
        return AccountProfile(
            name: user, displayName: user.prefix(1).uppercased() + user.dropFirst(),
            followers: 10 + index * 37 % 500, posts: 3 + index * 11 % 200)
    }

    public static func item(id: Int) -> AccountItem {
        let topics = ["queues", "operations", "run loops", "gzip", "caching", "SQLite", "layout", "the main thread"]
        return AccountItem(
            id: id, title: "Note \(id) about \(topics[id % topics.count])",
            body: String(repeating: "サクサク ", count: 20 + id % 30))
    }

    private static func json<T: Encodable>(_ value: T) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return .text(500, "encoding failed") }
        return HTTPResponse(contentType: "application/json", body: Array(data))
    }
}

/// What `/api/user` answers.
public struct AccountProfile: Codable, Sendable, Equatable {
    public var name: String
    public var displayName: String
    public var followers: Int
    public var posts: Int
}

/// What `/api/items/N` answers.
public struct AccountItem: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var body: String
}
