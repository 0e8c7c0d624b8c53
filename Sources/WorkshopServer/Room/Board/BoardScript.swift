import Foundation
import WorkshopCore

/// The board page's style sheet and script, served as `/board/board.css` and `/board/board.js`.
extension BoardPage {
    /// Made for a projector of 1280 x 800: 20 learners and 18 exercises on one screen. The page
    /// never scrolls sideways: columns that do not fit (a board with more exercises) scroll
    /// inside the table's box; long names and check names end in "…" (the whole text is in the
    /// cell's tooltip).
    static let style = """
        html { font-size: 15px; }
        body { font-family: "Noto Sans CJK JP", "Noto Sans", sans-serif; margin: 0.75rem 1rem; background: #fafafa; color: #222; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 1.5rem; }
        h1 { font-size: 1.6rem; margin: 0 0 0.5rem 0; }
        .status { color: #555; margin: 0; }
        body[data-state="offline"] .status { color: #b00020; font-weight: bold; }
        .scroll { max-width: 100%; overflow-x: auto; }
        table { border-collapse: collapse; }
        th, td { border: 1px solid #ccc; padding: 0.2rem 0.3rem; text-align: center; vertical-align: middle; white-space: nowrap; }
        thead th { background: #eee; }
        th.exercise { min-width: 2.6rem; }
        .clip { display: block; overflow: hidden; text-overflow: ellipsis; }
        th.learner, td.name, th.stuck, td.stuck { text-align: left; }
        td.name .clip { max-width: 8rem; font-weight: bold; }
        td.stuck .clip { max-width: 14rem; }
        td.stuck small { color: #555; }
        tr.stuck td.stuck { color: #b00020; font-weight: bold; }
        tr.stuck td.stuck small { color: #7a0016; font-weight: normal; }
        td[data-state="passed"] { background: #d9f2dd; }
        td[data-state="failing"] { background: #fde2e1; color: #7a0016; font-weight: bold; }
        td[data-state="not-started"] { color: #aaa; }
        td .meta { font-size: 0.8rem; font-weight: normal; margin-left: 0.15rem; }
        tr.count td { background: #eee; font-weight: bold; font-size: 0.8rem; line-height: 1.15; }
        .legend { color: #555; font-size: 0.85rem; margin: 0.4rem 0; }
        .empty { color: #333; font-size: 1.2rem; }
        .empty code { display: block; margin-top: 0.5rem; font-size: 1.3rem; padding: 0.5rem 0.75rem; background: #fff; border: 1px solid #ccc; overflow-wrap: anywhere; user-select: all; }
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
          function short(seconds) {
            const s = Math.max(0, Math.round(seconds));
            if (s < 60) return format("shortSeconds", s);
            if (s < 3600) return format("shortMinutes", Math.floor(s / 60));
            return format("shortHours", Math.floor(s / 3600));
          }
          function clipped(tag, text, cls) {
            const node = el(tag, undefined, cls);
            node.append(el("span", text, "clip"));
            node.title = String(text);
            return node;
          }
          function title(exercise) {
            return document.documentElement.lang === "ja" ? exercise.titleJapanese : exercise.title;
          }
          // The failing check by the board's own name for it, in the page's language; a check the
          // board does not know is only "failing" (what a learner sent is never shown).
          function checkName(cell) {
            if (!cell || !cell.failingCheck) return texts.failing;
            const name = document.documentElement.lang === "ja" ? cell.failingCheckNameJapanese : cell.failingCheckName;
            return name || texts.unknownCheck;
          }

          function draw(board) {
            const table = document.getElementById("board");
            const head = el("tr");
            head.append(el("th", texts.learner, "learner"), el("th", texts.stuck, "stuck"));
            for (const column of board.columns) {
              // The id only, to fit 18 columns on a projector; the title is the tooltip.
              const th = el("th", column.exercise.id, "exercise");
              th.dataset.exercise = column.exercise.id;
              th.title = column.exercise.id + " " + title(column.exercise);
              head.append(th);
            }
            const rows = board.learners.map(function (learner) {
              const tr = el("tr");
              tr.dataset.learner = learner.name;
              const stuck = learner.stuckSeconds !== null && learner.stuckSeconds !== undefined;
              if (stuck) tr.className = "stuck";
              tr.append(clipped("td", learner.name, "name"));
              const cells = new Map(learner.cells.map(function (cell) { return [cell.exercise, cell]; }));
              const where = el("td", "", "stuck");
              if (stuck) {
                // Where to walk to: the exercise, for how long, and the check it keeps failing.
                const current = cells.get(learner.current);
                const line = el("span", undefined, "clip");
                line.append(el("span", learner.current + " " + duration(learner.stuckSeconds) + " "));
                line.append(el("small", checkName(current)));
                where.append(line);
                where.title = line.textContent;
              }
              tr.append(where);
              for (const column of board.columns) {
                const cell = cells.get(column.exercise.id);
                const td = el("td");
                td.dataset.exercise = column.exercise.id;
                if (!cell) {
                  td.dataset.state = "not-started";
                  td.textContent = "·";
                  td.title = column.exercise.id + ": " + texts.notStarted;
                } else if (cell.passed) {
                  td.dataset.state = "passed";
                  td.textContent = "✓";
                  td.append(el("span", short(cell.secondsSpent), "meta"));
                  td.title = column.exercise.id + ": " + texts.passed + " · " + fill("spent", duration(cell.secondsSpent));
                } else {
                  td.dataset.state = "failing";
                  td.dataset.check = cell.failingCheck || "";
                  td.textContent = "✗";
                  td.append(el("span", short(cell.failingForSeconds || 0), "meta"));
                  let detail = column.exercise.id + ": ✗ " + checkName(cell) + " · " +
                    fill("failingFor", duration(cell.failingForSeconds || 0));
                  if (cell.worstFreezeSeconds !== null && cell.worstFreezeSeconds !== undefined) {
                    detail += " · " + fill("freeze", cell.worstFreezeSeconds.toFixed(2));
                  }
                  td.title = detail;
                }
                tr.append(td);
              }
              return tr;
            });
            // The room's count per exercise, right under the titles, where the projector shows it first.
            const counts = el("tr", undefined, "count");
            counts.append(el("td", texts.room, "name"), el("td", fill("learners", board.learners.length), "stuck"));
            for (const column of board.columns) {
              const td = el("td");
              td.append(el("span", "✓" + column.passed), el("br"), el("span", "✗" + column.failing));
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
            document.getElementById("legend").textContent = texts.legend;
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
