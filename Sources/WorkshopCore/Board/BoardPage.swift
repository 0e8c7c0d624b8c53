import Foundation

/// The board's web page: plain HTML, one script and one style sheet, all served by the fixture
/// server (nothing loaded from elsewhere). The HTML holds no learner data: the script fetches
/// the board as JSON and puts every value in with `textContent`, so a name such as `<script>`
/// is shown as text. The page's Content-Security-Policy allows no inline script either.
enum BoardPage {
    enum Language: String {
        case en
        case ja

        /// `?lang=` when it is en or ja; else the first of en or ja in the browser's
        /// Accept-Language, by its q-value; else English.
        static func pick(query: String?, acceptLanguage: String?) -> Language {
            if let query, let language = Language(rawValue: query.lowercased()) { return language }
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
    static func texts(_ language: Language) -> [String: String] {
        let en = language == .en
        return [
            "title": en ? "Room board" : "進捗ボード",
            "learner": en ? "Learner" : "受講者",
            "stuck": en ? "Stuck on the same check" : "同じチェックで失敗中",
            "room": en ? "Room" : "全体",
            "passed": en ? "passed" : "合格",
            "failing": en ? "failing" : "失敗中",
            "notStarted": en ? "not started" : "未着手",
            "failingFor": en ? "for %s" : "%s経過",
            "spent": en ? "time on it %s" : "取り組み時間 %s",
            "freeze": en ? "worst freeze %s s" : "最大フリーズ %s秒",
            "live": en ? "Live" : "ライブ更新中",
            "offline": en ? "Cannot reach the server; retrying…" : "サーバーに接続できません。再接続しています…",
            "updated": en ? "updated" : "更新",
            "learners": en ? "%s learners" : "%s人",
            "empty": en
                ? "No one has checked an exercise yet. Learners join with: swift run workshop join http://THIS-MACHINE:PORT --name NAME --code CODE"
                : "まだ誰もチェックしていません。受講者は swift run workshop join http://このマシン:ポート --name 名前 --code コード で参加します。",
            "seconds": en ? "%d s" : "%d秒",
            "minutes": en ? "%d min" : "%d分",
            "hours": en ? "%d h %d min" : "%d時間%d分",
        ]
    }

    static func html(_ language: Language) -> String {
        let texts = texts(language)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The texts are ours, but escape "<" anyway so nothing in them could end the element.
        let json = String(decoding: (try? encoder.encode(texts)) ?? Data("{}".utf8), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
        let title = escapeHTML(texts["title"] ?? "")
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
            <table id="board"><thead></thead><tbody></tbody></table>
            <p id="empty" class="empty" hidden></p>
            </main>
            <script type="application/json" id="board-texts">\(json)</script>
            </body>
            </html>

            """
    }

    /// For the few values the server itself writes into HTML (the page's title).
    static func escapeHTML(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    static let style = """
        body { font-family: "Noto Sans CJK JP", "Noto Sans", sans-serif; margin: 1.5rem; background: #fafafa; color: #222; }
        header { display: flex; align-items: baseline; gap: 1.5rem; }
        h1 { font-size: 1.8rem; margin: 0 0 1rem 0; }
        .status { color: #666; }
        body[data-state="offline"] .status { color: #b00020; font-weight: bold; }
        table { border-collapse: collapse; font-size: 1.05rem; }
        th, td { border: 1px solid #ccc; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
        thead th { background: #eee; }
        thead th small { display: block; font-weight: normal; color: #555; max-width: 8rem; font-size: 0.75rem; }
        td.name { font-weight: bold; white-space: nowrap; }
        td.stuck { white-space: nowrap; }
        tr.stuck td.stuck { color: #b00020; font-weight: bold; }
        td[data-state="passed"] { background: #d9f2dd; }
        td[data-state="failing"] { background: #fde2e1; }
        td[data-state="not-started"] { color: #aaa; }
        td[data-state="failing"] { font-size: 0.9rem; max-width: 12rem; }
        td small { display: block; color: #555; font-size: 0.75rem; }
        td .meta { color: #555; font-size: 0.75rem; margin-left: 0.4rem; }
        tr.count td { background: #eee; font-weight: bold; white-space: nowrap; }
        .empty { color: #555; font-size: 1.1rem; }
        """

    /// Draws the board and keeps it live: it asks for the board, then asks again with
    /// `after=VERSION`, which the server answers as soon as a report changes it (or after
    /// `wait` seconds), a second apart at most. `?wait=S` on the page's address sets that wait.
    static let script = #"""
        "use strict";
        (function () {
          const texts = JSON.parse(document.getElementById("board-texts").textContent);
          const params = new URLSearchParams(location.search);
          const wait = Math.min(Math.max(parseFloat(params.get("wait")) || 10, 0.2), 25);
          const body = document.body;
          let version = -1;

          function el(tag, text, cls) {
            const node = document.createElement(tag);
            if (text !== undefined && text !== null) node.textContent = String(text);
            if (cls) node.className = cls;
            return node;
          }
          function format(key, a, b) {
            return texts[key].replace("%d", String(a)).replace("%d", String(b));
          }
          function fill(key, value) {
            return texts[key].replace("%s", value);
          }
          function duration(seconds) {
            const s = Math.max(0, Math.round(seconds));
            if (s < 60) return format("seconds", s);
            if (s < 3600) return format("minutes", Math.floor(s / 60));
            return format("hours", Math.floor(s / 3600), Math.floor((s % 3600) / 60));
          }
          function title(exercise) {
            return document.documentElement.lang === "ja" ? exercise.titleJapanese : exercise.title;
          }

          function draw(board) {
            const table = document.getElementById("board");
            const head = el("tr");
            head.append(el("th", texts.learner), el("th", texts.stuck));
            for (const column of board.columns) {
              const th = el("th", column.exercise.id);
              th.dataset.exercise = column.exercise.id;
              th.append(el("small", title(column.exercise)));
              head.append(th);
            }
            const rows = board.learners.map(function (learner) {
              const tr = el("tr");
              tr.dataset.learner = learner.name;
              if (learner.stuckSeconds !== null && learner.stuckSeconds !== undefined) {
                tr.className = "stuck";
              }
              tr.append(el("td", learner.name, "name"));
              const stuck = el("td", "", "stuck");
              if (tr.className === "stuck") {
                stuck.textContent = learner.current + " " + duration(learner.stuckSeconds);
              }
              tr.append(stuck);
              const cells = new Map(learner.cells.map(function (cell) { return [cell.exercise, cell]; }));
              for (const column of board.columns) {
                const cell = cells.get(column.exercise.id);
                const td = el("td");
                td.dataset.exercise = column.exercise.id;
                if (!cell) {
                  td.dataset.state = "not-started";
                  td.textContent = "·";
                  td.title = texts.notStarted;
                } else if (cell.passed) {
                  // One short line: a passed exercise needs no more room on the projector.
                  td.dataset.state = "passed";
                  td.textContent = "✓";
                  td.title = texts.passed + " · " + fill("spent", duration(cell.secondsSpent));
                  td.append(el("span", duration(cell.secondsSpent), "meta"));
                } else {
                  td.dataset.state = "failing";
                  td.dataset.check = cell.failingCheck || "";
                  td.textContent = "✗ " + (cell.failingCheck || texts.failing);
                  let detail = fill("failingFor", duration(cell.failingForSeconds || 0));
                  if (cell.worstFreezeSeconds !== null && cell.worstFreezeSeconds !== undefined) {
                    detail += " · " + fill("freeze", cell.worstFreezeSeconds.toFixed(2));
                  }
                  td.append(el("small", detail));
                }
                tr.append(td);
              }
              return tr;
            });
            // The room's count per exercise, right under the titles, where the projector shows it first.
            const counts = el("tr", undefined, "count");
            counts.append(el("td", texts.room), el("td", fill("learners", board.learners.length)));
            for (const column of board.columns) {
              const td = el("td", "✓ " + column.passed + "  ✗ " + column.failing);
              td.dataset.exercise = column.exercise.id;
              td.dataset.passed = String(column.passed);
              td.dataset.failing = String(column.failing);
              counts.append(td);
            }
            table.tHead.replaceChildren(head, counts);
            table.tBodies[0].replaceChildren.apply(table.tBodies[0], rows);
            const empty = document.getElementById("empty");
            empty.textContent = texts.empty;
            empty.hidden = board.learners.length > 0;
            if (version >= 0 && board.version !== version) {
              body.dataset.updates = String(parseInt(body.dataset.updates, 10) + 1);
            }
            version = board.version;
            body.dataset.version = String(version);
            body.dataset.state = "live";
            document.getElementById("status").textContent =
              texts.live + " · " + texts.updated + " " + new Date().toLocaleTimeString(document.documentElement.lang);
          }

          function poll() {
            const url = "/board/state.json" + (version >= 0 ? "?after=" + version + "&wait=" + wait : "");
            fetch(url, { cache: "no-store" })
              .then(function (response) {
                if (!response.ok) throw new Error(String(response.status));
                return response.json();
              })
              .then(function (board) {
                draw(board);
                setTimeout(poll, 1000);
              })
              .catch(function () {
                body.dataset.state = "offline";
                document.getElementById("status").textContent = texts.offline;
                setTimeout(poll, 3000);
              });
          }
          poll();
        })();
        """#
}
