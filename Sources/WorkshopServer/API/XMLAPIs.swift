import Foundation
import WorkshopCore

/// Three XML APIs of different sizes and shapes, like the ones in "iPhone の NSURLRequest で
/// gzip 使ってみた" (each about 1,000 lines of XML). The data is made up but stable: the same
/// request gives the same bytes every time, so a body fetched with gzip can be compared
/// byte for byte with one fetched without.
///
/// - `GET /xml/friends?count=N`: users with a profile (default 60 users, about 500 lines).
/// - `GET /xml/statuses?count=N`: posts with text and a reply chain (default 90, about 630 lines).
/// - `GET /xml/catalog?count=N`: shop items with prices, tags and a description (default 90,
///   about 1,000 lines).
///
/// The server gzips them when the request accepts gzip (see `FixtureServer`), like any text.
public enum XMLAPIs {
    /// One API: where it lives, what one record is called, and how to make its document.
    public struct API: Sendable, Equatable {
        /// A short name for tables: "friends", "statuses", "catalog".
        public let name: String
        /// The route, e.g. "/xml/friends".
        public let path: String
        /// The element that holds one record, e.g. "user".
        public let recordElement: String
        /// Records when the request gives no `count`.
        public let defaultCount: Int

        /// The document for `count` records, exactly as the server sends it (before gzip).
        public func body(count: Int? = nil) -> [UInt8] {
            Array(XMLAPIs.document(self, count: count ?? defaultCount).utf8)
        }
    }

    public static let friends = API(name: "friends", path: "/xml/friends", recordElement: "user", defaultCount: 60)
    public static let statuses = API(name: "statuses", path: "/xml/statuses", recordElement: "status", defaultCount: 90)
    public static let catalog = API(name: "catalog", path: "/xml/catalog", recordElement: "item", defaultCount: 90)

    /// The three APIs in the article's order (①, ②, ③).
    public static let all = [friends, statuses, catalog]

    /// Routes for `FixtureServer` (they are part of `FixtureAPI.routes`).
    public static let routes: [(prefix: String, route: FixtureServer.Route)] = all.map { api in
        let route: FixtureServer.Route = { request, _ in
            guard request.path == api.path else { return nil }
            let count = request.query["count"].flatMap(Int.init) ?? api.defaultCount
            guard (0...10_000).contains(count) else { return .text(400, "count must be 0...10000") }
            return HTTPResponse(contentType: "application/xml; charset=utf-8", body: api.body(count: count))
        }
        return (prefix: api.path, route: route)
    }

    // MARK: The documents

    static func document(_ api: API, count: Int) -> String {
        var random = SeededRandom(seed: UInt64(api.name.utf8.reduce(17) { $0 &* 31 &+ Int($1) }))
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        switch api.name {
        case "friends":
            lines.append("<users count=\"\(count)\">")
            for i in 0..<count { lines += friend(i, &random) }
            lines.append("</users>")
        case "statuses":
            lines.append("<statuses count=\"\(count)\">")
            for i in 0..<count { lines += status(i, count: count, &random) }
            lines.append("</statuses>")
        default:
            lines.append("<catalog count=\"\(count)\" currency=\"JPY\">")
            for i in 0..<count { lines += item(i, &random) }
            lines.append("</catalog>")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let givenNames = [
        "Aoi", "Ren", "Haruto", "Sakura", "Yui", "Sota", "Mei", "Kaito", "Hina", "Riku",
        "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
    ]
    private static let familyNames = [
        "Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto",
        "Nakamura", "Kobayashi", "Kato", "Smith", "Jones", "Brown", "Miller",
    ]
    private static let cities = [
        "東京都渋谷区", "大阪府大阪市", "Kyoto", "札幌市", "Fukuoka", "Sendai", "横浜市",
        "San Francisco", "London", "Nagoya", "神戸市", "Berlin",
    ]
    private static let words = [
        "gzip", "table view", "main thread", "queue", "run loop", "SQLite", "cache",
        "parser", "icon", "timeline", "3G", "Wi-Fi", "latency", "XML", "JSON",
        "サクサク", "通信", "解析", "描画", "スレッド", "圧縮", "速い", "遅い",
        "release", "build", "test", "review", "coffee", "lunch", "bug", "fix",
    ]
    private static let tagNames = [
        "new", "sale", "limited", "gift", "popular", "eco", "handmade", "import",
        "セール", "限定", "人気", "送料無料",
    ]

    private static func name(_ i: Int) -> (given: String, family: String) {
        (givenNames[(i * 7 + 3) % givenNames.count], familyNames[(i * 5 + 1) % familyNames.count])
    }

    private static func sentence(_ random: inout SeededRandom, words count: Int) -> String {
        (0..<count).map { _ in words[random.next(below: words.count)] }.joined(separator: " ")
    }

    private static func date(_ random: inout SeededRandom) -> String {
        String(
            format: "2010-06-%02dT%02d:%02d:%02d+09:00", 1 + random.next(below: 28), random.next(below: 24),
            random.next(below: 60), random.next(below: 60))
    }

    private static func friend(_ i: Int, _ random: inout SeededRandom) -> [String] {
        let (given, family) = name(i)
        let screenName = "\(given.lowercased())_\(family.lowercased())\(i)"
        return [
            "  <user id=\"\(100_000 + i * 37)\">",
            "    <name>\(given) \(family)</name>",
            "    <screen_name>\(screenName)</screen_name>",
            "    <location>\(cities[random.next(below: cities.count)])</location>",
            "    <followers>\(random.next(below: 5_000))</followers>",
            "    <profile_image_url>http://img.example.com/profile/\(screenName).png</profile_image_url>",
            "    <created_at>\(date(&random))</created_at>",
            "  </user>",
        ]
    }

    private static func status(_ i: Int, count: Int, _ random: inout SeededRandom) -> [String] {
        let (given, family) = name(random.next(below: 60))
        let replyTo = i > 0 && random.next(below: 3) == 0 ? String(9_000_000 + random.next(below: i)) : ""
        return [
            "  <status id=\"\(9_000_000 + count - i)\">",
            "    <created_at>\(date(&random))</created_at>",
            "    <text>\(sentence(&random, words: 6 + random.next(below: 10)))</text>",
            "    <user screen_name=\"\(given.lowercased())_\(family.lowercased())\">\(given) \(family)</user>",
            replyTo.isEmpty ? "    <in_reply_to/>" : "    <in_reply_to status_id=\"\(replyTo)\"/>",
            "    <favorited>\(random.next(below: 4) == 0 ? "true" : "false")</favorited>",
            "  </status>",
        ]
    }

    private static func item(_ i: Int, _ random: inout SeededRandom) -> [String] {
        let tags = (0..<(1 + random.next(below: 3))).map { _ in
            "      <tag>\(tagNames[random.next(below: tagNames.count)])</tag>"
        }
        return [
            "  <item sku=\"SK-\(String(format: "%05d", 10_000 + i * 13))\">",
            "    <title>\(sentence(&random, words: 2 + random.next(below: 3)))</title>",
            "    <price currency=\"JPY\">\(100 * (3 + random.next(below: 200)))</price>",
            "    <stock>\(random.next(below: 50))</stock>",
            "    <tags>",
        ] + tags + [
            "    </tags>",
            "    <description>\(sentence(&random, words: 10 + random.next(below: 12)))</description>",
            "    <updated_at>\(date(&random))</updated_at>",
            "  </item>",
        ]
    }

    /// A tiny deterministic random number generator (a 64-bit linear congruential step), so
    /// that the made-up documents are the same on every run and every machine.
    struct SeededRandom {
        private var state: UInt64
        init(seed: UInt64) { state = seed }

        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }
}
