import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WorkshopCore

/// The job both variants do, as the article's app would: log in, get the user with the
/// login's token, read a note bundled with the app, and fetch several items (also with the
/// token). One item is slow, and the user cancels it as soon as the first item is on screen.
struct AccountPlan: Sendable {
    var endpoint: FixtureEndpoint
    var user = "aoi"
    var itemCount = 6
    /// The item the user cancels (nil: nobody cancels), and how slow the server is with it.
    var slowItem: Int? = 1
    var slowItemLatencySeconds = 2.0

    var itemIDs: [Int] { Array(1...max(1, itemCount)) }

    /// Every row label, in screen order: what "all settled" means.
    var labels: [String] { ["login", "user", "welcome"] + itemIDs.map(Self.itemLabel) }
    static func itemLabel(_ id: Int) -> String { "item \(id)" }

    func loginRequest() -> URLRequest {
        URLRequest(url: endpoint.url("/api/login?user=\(user)&password=\(AccountAPI.password)"))
    }

    func userRequest(token: String) -> URLRequest {
        var request = URLRequest(url: endpoint.url("/api/user"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    func itemRequest(id: Int, token: String) -> URLRequest {
        let slow = id == slowItem ? "?latency=\(slowItemLatencySeconds)" : ""
        var request = URLRequest(url: endpoint.url("/api/items/\(id)\(slow)"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// A note "bundled with the app", as a `data:` URL. URLSession answers it with a plain
    /// `URLResponse`: no status code, no headers. (A `file://` URL would do on Apple
    /// platforms; Linux URLSession refuses it with NSURLErrorDomain -1002, unsupported URL.)
    static let welcomeText = "ようこそ: this note came from a data: URL, not from the server."
    static let welcomeURL = URL(string: "data:text/plain;charset=utf-8;base64," + Data(welcomeText.utf8).base64EncodedString())!
}

/// The parse steps, shared by both variants so that both show exactly the same thing.
enum AccountParsing {
    struct Token: Decodable { var token: String }

    static func token(_ body: FetchedBody) throws -> String {
        try JSONDecoder().decode(Token.self, from: body.data).token
    }

    static func profile(_ body: FetchedBody) throws -> AccountProfile {
        try JSONDecoder().decode(AccountProfile.self, from: body.data)
    }

    static func item(_ body: FetchedBody) throws -> AccountItem {
        try JSONDecoder().decode(AccountItem.self, from: body.data)
    }

    static func text(_ body: FetchedBody) throws -> String {
        guard let text = String(data: body.data, encoding: .utf8) else { throw FetchFailure.unparseable("not UTF-8") }
        return text
    }
}
