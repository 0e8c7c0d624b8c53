import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The job both variants do, as the article's app would: log in, get the user with the
/// login's token, read a note bundled with the app, and fetch several items (also with the
/// token). One item is slow, and the user cancels it as soon as the first item is on screen.
public struct AccountPlan: Sendable, LessonSetup {
    public var endpoint: FixtureEndpoint
    public var user = "aoi"
    public var itemCount: Int
    /// The item the user cancels (nil: nobody cancels), and how slow the server is with it.
    public var slowItem: Int?
    public var slowItemLatencySeconds: Double

    public init(endpoint: FixtureEndpoint, itemCount: Int = 6, slowItem: Int? = 1, slowItemLatencySeconds: Double = 2) {
        self.endpoint = endpoint
        self.itemCount = itemCount
        self.slowItem = slowItem
        self.slowItemLatencySeconds = slowItemLatencySeconds
    }

    /// The longest a run may take before it counts as hung: every request may take the whole
    /// `--timeout`, and the no-thread variant sends them one after another.
    public var worstCaseSeconds: Double {
        slowItemLatencySeconds + Double(itemCount + 3) * (endpoint.knobs.latencySeconds + 1) + 2
            * endpoint.timeoutSeconds
    }

    public var itemIDs: [Int] { Array(1...max(1, itemCount)) }

    /// Every row label, in screen order: what "all settled" means.
    public var labels: [String] { ["login", "user", "welcome"] + itemIDs.map(Self.itemLabel) }
    public static func itemLabel(_ id: Int) -> String { "item \(id)" }

    public func loginRequest() -> URLRequest {
        request(endpoint.url("/api/login?user=\(user)&password=\(AccountAPI.password)"))
    }

    public func userRequest(token: String) -> URLRequest { request(endpoint.url("/api/user"), token: token) }

    public func itemRequest(id: Int, token: String) -> URLRequest {
        let slow = id == slowItem ? "?latency=\(slowItemLatencySeconds)" : ""
        return request(endpoint.url("/api/items/\(id)\(slow)"), token: token)
    }

    public func welcomeRequest() -> URLRequest { request(Self.welcomeURL) }

    /// Every request may wait `--timeout` seconds for its answer, and says so itself.
    func request(_ url: URL, token: String? = nil) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: endpoint.timeoutSeconds)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// A note "bundled with the app", as a `data:` URL. URLSession answers it with a plain
    /// `URLResponse`: no status code, no headers. (A `file://` URL would do on Apple
    /// platforms; Linux URLSession refuses it with NSURLErrorDomain -1002, unsupported URL.)
    public static let welcomeText = "ようこそ: this note came from a data: URL, not from the server."
    public static let welcomeURL = URL(dataURLWithText: welcomeText)

    public func tearDown() { endpoint.tearDown() }
}

/// The parse steps and the rows they become, shared by both variants so that both show
/// exactly the same thing.
public enum AccountParsing {
    struct Token: Decodable { var token: String }

    public static func token(_ body: FetchedBody) throws -> String {
        try JSONDecoder().decode(Token.self, from: body.data).token
    }

    public static func profile(_ body: FetchedBody) throws -> AccountProfile {
        try JSONDecoder().decode(AccountProfile.self, from: body.data)
    }

    public static func item(_ body: FetchedBody) throws -> AccountItem {
        try JSONDecoder().decode(AccountItem.self, from: body.data)
    }

    public static func text(_ body: FetchedBody) throws -> String {
        guard let text = String(data: body.data, encoding: .utf8) else {
            throw FetchError.malformed(localized("not UTF-8"), url: body.url)
        }
        return text
    }

    /// Runs one parse step on a body: a body it cannot read is a malformed body of that URL.
    static func run<Value>(_ parse: (FetchedBody) throws -> Value, on body: FetchedBody) -> Result<Value, FetchError> {
        do { return .success(try parse(body)) } catch {
            return .failure(error as? FetchError ?? .malformed("\(error)", url: body.url))
        }
    }

    /// The trace's name for parsing `label`'s answer ("parse token", not "parse login", which
    /// the picture would colour as a fetch).
    static func parseSpan(_ label: String) -> String { label == "login" ? "parse token" : "parse \(label)" }

    static func loginRow(user: String) -> TableRow {
        TableRow(text: localized("logged in as %@", user), detail: "login")
    }
    static func userRow(_ profile: AccountProfile) -> TableRow {
        TableRow(
            text: localized("%1$@: %2$d followers, %3$d posts", profile.displayName, profile.followers, profile.posts),
            detail: "user")
    }
    static func welcomeRow(_ text: String) -> TableRow { TableRow(text: text, detail: "welcome") }
    static func itemRow(_ item: AccountItem) -> TableRow {
        TableRow(text: item.title, detail: AccountPlan.itemLabel(item.id))
    }
}

extension URL {
    /// A `data:` URL carrying `text` (base64 characters only, so it always parses).
    init(dataURLWithText text: String) {
        var parts = URLComponents()
        parts.scheme = "data"
        parts.path = "text/plain;charset=utf-8;base64," + Data(text.utf8).base64EncodedString()
        self = parts.url ?? URL(fileURLWithPath: "/")
    }
}
