import Foundation
import WorkshopCore

/// An RSS-style news feed for the push-parsing lesson (lesson 02), served at
/// `GET /feed.xml?items=N` (default 140 items, about 1,000 lines and 50 KB).
///
/// It is served as-is, never gzipped, so that the bandwidth knob paces exactly the bytes the
/// client's XML parser reads (compression is lesson 04's subject). `fault=malformed` cuts it
/// in half, which leaves unclosed elements: a parser must report that, not hang.
public enum FeedAPI {
    public static let defaultItems = 140

    /// The `/feed.xml` route (listed in `FixtureAPI.routes`).
    public static let route: FixtureServer.Route = { request, baseURL in
        let count = request.query["items"].flatMap(Int.init) ?? defaultItems
        guard (0...20_000).contains(count) else { return .text(400, "items must be 0...20000") }
        return HTTPResponse(
            contentType: "application/rss+xml; charset=utf-8",
            body: Array(feed(items: count, baseURL: baseURL).utf8), compressible: false)
    }

    /// One feed item as a reader shows it.
    public struct Item: Sendable, Equatable {
        public var title: String
        public var author: String
        public var link: String
        public init(title: String, author: String, link: String) {
            self.title = title
            self.author = author
            self.link = link
        }
    }

    /// The items the feed carries, newest first; deterministic for a given count and base URL.
    public static func items(count: Int, baseURL: String) -> [Item] {
        FixtureAPI.timeline(count: count, baseURL: baseURL).map { entry in
            Item(title: entry.text, author: entry.user.name, link: "\(baseURL)/posts/\(entry.id)")
        }
    }

    /// The whole document: seven lines per item plus a few for the channel.
    public static func feed(items count: Int, baseURL: String) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<rss version="2.0">"#,
            "<channel>",
            "<title>Sakusaku public feed</title>",
            "<link>\(escape(baseURL))/</link>",
        ]
        for (index, item) in items(count: count, baseURL: baseURL).enumerated() {
            lines += [
                "<item>",
                "  <title>\(escape(item.title))</title>",
                "  <author>\(escape(item.author))</author>",
                "  <link>\(escape(item.link))</link>",
                "  <description>Post \(count - index) by \(escape(item.author)) &amp; friends, as seen on the public timeline.</description>",
                "  <pubDate>\(pubDate(minutesAgo: index))</pubDate>",
                "</item>",
            ]
        }
        lines += ["</channel>", "</rss>"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A fixed, readable date: 2010-06-26 12:00 UTC minus some minutes (no clock involved).
    static func pubDate(minutesAgo: Int) -> String {
        let minutes = 12 * 60 - minutesAgo
        let hour = (minutes / 60 + 24) % 24
        let minute = (minutes % 60 + 60) % 60
        return String(format: "Sat, 26 Jun 2010 %02d:%02d:00 +0000", hour, minute)
    }
}
