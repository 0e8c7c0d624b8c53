import Foundation
import WorkshopCore

/// The fixture server's API: the articles' "external API", with made-up but stable data.
///
/// - `GET /timeline?count=N`: a public timeline as JSON, newest first:
///   `[{"id": 1, "text": "...", "user": {"name": "...", "profile_image_url": "http://.../icons/NAME.png"}}]`
/// - `GET /icons/NAME.png`: that user's icon, a small PNG-like blob, the same bytes every time.
/// - `GET /health`: "ok".
public enum FixtureAPI {
    /// Every route the fixture server answers by default. Each lesson's API lives in its own file.
    public static let routes: [(prefix: String, route: FixtureServer.Route)] =
        timelineRoutes
        + AccountAPI.routes  // lesson 01: login -> get-user and /api/items (AccountAPI.swift)
        + XMLAPIs.routes  // lesson 04: three XML APIs (XMLAPIs.swift)

    static let timelineRoutes: [(prefix: String, route: FixtureServer.Route)] = [
        (
            "/timeline",
            { request, baseURL in
                let count = request.query["count"].flatMap(Int.init) ?? 20
                guard (0...100_000).contains(count) else { return .text(400, "count must be 0...100000") }
                let entries = timeline(count: count, baseURL: baseURL)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                guard let json = try? encoder.encode(entries) else { return .text(500, "encoding failed") }
                return HTTPResponse(contentType: "application/json", body: Array(json))
            }
        ),
        (
            "/icons/",
            { request, _ in
                let file = request.path.dropFirst("/icons/".count)
                guard file.hasSuffix(".png"), file.count > 4 else { return .text(404, "icons are /icons/NAME.png") }
                return HTTPResponse(
                    contentType: "image/png", body: icon(for: String(file.dropLast(4))),
                    compressible: false)
            }
        ),
        ("/health", { _, _ in .text(200, "ok") }),
        ("/feed.xml", FeedAPI.route),  // lesson 02's XML feed (FeedAPI.swift)
        ("/orders", CatalogAPI.ordersRoute),  // lesson 05 (CatalogAPI.swift)
    ]

    /// The users who post; each has an icon.
    public static let userNames = [
        "aoi", "ren", "haruto", "sakura", "yui", "sota", "mei", "kaito", "hina", "riku",
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
        "mallory", "niaj", "olivia", "peggy",
    ]

    private static let openings = [
        "Just shipped", "Still debugging", "Finally understood", "Rewrote", "Profiling",
        "やっと動いた", "今日も", "Reading about", "Benchmarking", "Drawing",
    ]
    private static let subjects = [
        "the table view", "a background queue", "the image cache", "our JSON parser",
        "the run loop", "gzip on a 3G link", "SQLite upserts", "the main thread",
        "メインスレッドの描画", "アイコンの遅延読み込み", "the login flow", "a serial queue",
    ]
    private static let endings = [
        "and it scrolls smoothly now.", "— no more frozen screens.", "but the icons arrive late.",
        "サクサク動く!", "with two queues instead of one.", "while the UI stays responsive.",
        "and the stall meter says 0 dropped frames.", "but only on a slow network.",
    ]

    /// The timeline's entries, deterministic for a given count and base URL.
    public static func timeline(count: Int, baseURL: String) -> [TimelineEntry] {
        (0..<count).map { i in
            let name = userNames[(i * 7) % userNames.count]
            let text =
                "\(openings[i % openings.count]) \(subjects[(i * 5) % subjects.count]) \(endings[(i * 3) % endings.count])"
            return TimelineEntry(
                id: count - i, text: text,
                user: .init(name: name, profileImageURL: "\(baseURL)/icons/\(name).png"))
        }
    }

    /// A user's icon: a PNG signature followed by bytes derived from the name (about 2 KB).
    public static func icon(for name: String) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var seed = UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { ($0 << 5) &+ $0 &+ Int($1) })
        for _ in 0..<2040 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407  // a linear congruential step
            bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
        }
        return bytes
    }
}

/// One post of the public timeline, as the API sends it.
public struct TimelineEntry: Codable, Sendable, Equatable {
    public struct User: Codable, Sendable, Equatable {
        public var name: String
        public var profileImageURL: String
        enum CodingKeys: String, CodingKey {
            case name
            case profileImageURL = "profile_image_url"
        }
    }
    public var id: Int
    public var text: String
    public var user: User
}
