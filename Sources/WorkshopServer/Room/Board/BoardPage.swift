import Foundation
import WorkshopCore

/// The board's web page: plain HTML, one script and one style sheet, all served by the fixture
/// server (nothing loaded from elsewhere). The HTML holds no learner data: the script fetches
/// the board as JSON and puts every value in with `textContent`, so a name such as `<script>`
/// is shown as text. The page's Content-Security-Policy allows no inline script either.
enum BoardPage {
    enum Language: String {
        case en
        case ja

        /// `?lang=` when it is en or ja; else the room's (the server's `--lang`); else the first
        /// of en or ja in the browser's Accept-Language, by its q-value; else English.
        static func pick(query: String?, room: Language? = nil, acceptLanguage: String?) -> Language {
            if let query, let language = Language(rawValue: query.lowercased()) { return language }
            if let room { return room }
            let ranked = (acceptLanguage ?? "").split(separator: ",").enumerated().compactMap {
                index, part -> (tag: String, q: Double, index: Int)? in
                let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let tag = fields.first?.lowercased(), !tag.isEmpty else { return nil }
                let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return (tag, q, index)
            }
            .filter { $0.q > 0 }
            .sorted { ($0.q, -$0.index) > ($1.q, -$1.index) }
            for entry in ranked {
                if entry.tag == "ja" || entry.tag.hasPrefix("ja-") { return .ja }
                if entry.tag == "en" || entry.tag.hasPrefix("en-") { return .en }
            }
            return .en
        }
    }

    /// Every text the page shows, in both languages; the script reads them from the page.
    /// `joinCommand` is the line learners type (`RoomBoard.joinCommand`), shown on an empty board.
    static func texts(_ language: Language, joinCommand: String) -> [String: String] {
        let en = language == .en
        return [
            "title": en ? "Room board" : "進捗ボード",
            "learner": en ? "Learner" : "受講者",
            "stuck": en ? "Stuck on the same check" : "同じチェックで失敗中",
            "room": en ? "Room" : "全体",
            "passed": en ? "passed" : "合格",
            "failing": en ? "failing" : "失敗中",
            // A check the board's catalog does not name (a learner's workshop newer or older than
            // the room's): the board never shows words a learner sent instead.
            "unknownCheck": en ? "a check not in this room's list" : "この会場の一覧にないチェック",
            "notStarted": en ? "not started" : "未着手",
            "failingFor": en ? "for %s" : "%s経過",
            "spent": en ? "time on it %s" : "取り組み時間 %s",
            "freeze": en ? "worst freeze %s s" : "最大フリーズ %s秒",
            "live": en ? "Live" : "ライブ更新中",
            "offline": en ? "Cannot reach the server; retrying…" : "サーバーに接続できません。再接続しています…",
            "updated": en ? "updated" : "更新",
            "learners": en ? "%s learners" : "%s人",
            "empty": en
                ? "No one has checked an exercise yet. Learners join with:"
                : "まだ誰もチェックしていません。受講者は次のコマンドで参加します:",
            "join": joinCommand,
            "seconds": en ? "%d s" : "%d秒",
            "minutes": en ? "%d min" : "%d分",
            "hours": en ? "%d h %d min" : "%d時間%d分",
            // A cell's time, short: 18 columns share a 1280-pixel projector.
            "shortSeconds": en ? "%ds" : "%d秒",
            "shortMinutes": en ? "%dm" : "%d分",
            "shortHours": en ? "%dh" : "%d時間",
            "legend": en
                ? "✓ passed (time on it), ✗ failing (for how long), · not started. Point at a cell to see its check."
                : "✓ 合格(取り組み時間)、✗ 失敗中(経過時間)、· 未着手。セルにポインタを重ねるとチェック名が出ます。",
        ]
    }

    static func html(_ language: Language, joinCommand: String) -> String {
        let texts = texts(language, joinCommand: joinCommand)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The texts are ours, but escape "<" anyway so nothing in them could end the element.
        let json = String(decoding: (try? encoder.encode(texts)) ?? Data("{}".utf8), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
        let title = xmlEscaped(texts["title"] ?? "")  // the core's escaping, as the pictures use
        return """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <link rel="stylesheet" href="/board/board.css">
            <script src="/board/board.js" defer></script>
            </head>
            <body data-state="loading" data-version="-1" data-updates="0">
            <header><h1>\(title)</h1><p id="status" class="status"></p></header>
            <main>
            <div class="scroll"><table id="board"><thead></thead><tbody></tbody></table></div>
            <p id="legend" class="legend"></p>
            <p id="empty" class="empty" hidden></p>
            </main>
            <script type="application/json" id="board-texts">\(json)</script>
            </body>
            </html>

            """
    }
}
