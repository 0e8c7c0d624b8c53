import Foundation
import WorkshopCore

/// The board page's style sheet and script, served as `/board/board.css` and `/board/board.js`.
extension BoardPage {
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
            empty.replaceChildren(el("span", texts.empty), el("code", texts.join));
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
