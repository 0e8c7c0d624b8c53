import Foundation
import LessonTestSupport
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// The board page in a real browser: Debian's chromium, headless (`Browser`), which `bash
/// .ci/setup --extras` installs; without it each test fails saying so. The slow tier.
@Suite("Room board in a browser")
struct BoardBrowserSlowTests {
    /// Where the screenshot goes: BOARD_SCREENSHOT, else a temporary file (its path is printed).
    static let screenshot =
        ProcessInfo.processInfo.environment["BOARD_SCREENSHOT"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).png").path

    static func chromium(_ arguments: [String], timeout: Double = Browser.timeout) throws -> Subprocess.Outcome {
        try Browser.run(arguments, timeout: timeout)
    }

    static func room() throws -> TestBoard {
        let room = try TestBoard()
        let reports: [(String, BoardReport)] = [
            ("aoi", TestBoard.report("A1", passed: true)),
            ("aoi", TestBoard.report("A2", passed: false, check: "fetches off the main thread")),
            ("ren", TestBoard.report("A1", passed: false, check: "the Screen never hangs")),
            ("<script>", TestBoard.report("A1", passed: false, check: "<img src=x onerror=alert(1)>")),
            ("さくら", TestBoard.report("A1", passed: true)),
            ("さくら", TestBoard.report("A2", passed: true)),
        ]
        for (name, report) in reports { _ = try room.report(name, report) }
        return room
    }

    /// A chromium that hangs in every try decides nothing: off the test's task it is `Hung`, which
    /// `cancelWhenHung` turns into a cancelled test (on it, `Browser.run` cancels the test itself).
    @Test("a chromium that hangs in every try is Hung, not an outcome to judge")
    func aHangIsNoVerdict() throws {
        try #require(Browser.path != nil, "\(Browser.missing)")
        let thrown = Locked<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Far too short a time for chromium to start, let alone load a page: every try hangs.
            do { _ = try Browser.run(["--dump-dom", "about:blank"], timeout: 0.05, attempts: 2) } catch {
                thrown.withLock { $0 = error }
            }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 60) == .success, "Browser.run did not return")
        let error = try #require(thrown.current, "no error: a hang was taken as an outcome")
        #expect(error is Browser.Hung, "\(error)")
        #expect("\(error)".contains("a hang says nothing about the page"), "\(error)")
    }

    @Test(
        "the page shows a row per learner, names as text, and a report posted while it is open")
    func liveUpdate() throws {
        let room = try Self.room()
        defer { room.remove() }
        let url = "\(room.server.baseURL.absoluteString)/board?lang=en&wait=1"
        // The browser runs in the background; once its page waits for a change, a late learner reports.
        let outcome = Locked<Result<Subprocess.Outcome, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try Self.chromium(["--dump-dom", "--virtual-time-budget=4000", url]) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        let version = room.board.version
        #expect(
            room.board.wait(timeout: Browser.timeout) { _, waiting in waiting > 0 }, "the page never asked for a change"
        )
        #expect(try room.report("late", TestBoard.report("B1", passed: false, check: "a check")) == 200)
        #expect(
            finished.wait(timeout: .now() + Browser.timeout * Double(Browser.attempts)) == .success,
            "chromium did not finish")
        let result = try #require(outcome.current)
        let dump = try Browser.cancelWhenHungNow { try result.get() }
        #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
        let dom = dump.stdout
        #expect(dom.contains("data-state=\"live\""), "\(dom.prefix(3000))")
        #expect(dom.contains("data-version=\"\(version + 1)\""))
        #expect(!dom.contains("data-updates=\"0\""), "no live update")
        for name in ["aoi", "ren", "late", "さくら"] { #expect(dom.contains("data-learner=\"\(name)\"")) }
        // The hostile name is text, not an element: only the page's two script elements exist. The
        // hostile check's name is not shown at all: the board names only the checks it knows.
        #expect(dom.contains("<span class=\"clip\">&lt;script&gt;</span>"))
        #expect(!dom.contains("onerror=alert"))
        #expect(dom.contains("a check not in this room's list"))
        #expect(dom.components(separatedBy: "<script").count - 1 == 2)
        #expect(!dom.contains("<img"))
        // The longest stuck is first: ren and <script> failed before late; aoi is stuck on A2.
        let rows = dom.components(separatedBy: "data-learner=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(rows.first == "aoi", "\(rows)")
        #expect(rows.last == "さくら", "\(rows)")
        #expect(dom.contains("data-exercise=\"A1\" data-passed=\"2\" data-failing=\"2\""))
    }

    @Test(
        "a screenshot of the Japanese page")
    func screenshot() throws {
        let room = try Self.room()
        defer { room.remove() }
        let url = "\(room.server.baseURL.absoluteString)/board?wait=1"
        if let failure = try Browser.picture(
            "board", of: url, to: Self.screenshot, language: "ja", budget: 2000, minimumBytes: 10_000)
        {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// The package this test was built from: its Exercises/ are the board's columns.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A board with every exercise of the workshop as a column, and 20 learners of every kind of
    /// name (long, Japanese, a script tag) who have checked from 1 to all of them, passing and
    /// failing the exercises' own checks (by id, or by English name only as an older `workshop`
    /// sent them; one the workshop runs itself, and one the catalog does not know); served with a
    /// copy of the page that carries `Browser.probeScript` (at /probe/board, the same page, style,
    /// script and Content-Security-Policy, plus the probe). `language`: the room's.
    static func fullRoom(language: Language? = nil) throws -> (
        board: RoomBoard, server: FixtureServer, folder: URL, exercises: Int
    ) {
        let exercises = BoardExercise.load(root: packageRoot)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("board-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let board = try RoomBoard(
            databasePath: folder.appendingPathComponent("board.sqlite").path, exercises: exercises,
            code: TestBoard.code, language: language)
        let page = try #require(board.routes.first { $0.prefix == "/board" }?.route)
        let probe: [(prefix: String, route: FixtureServer.Route)] = [
            (
                "/probe/probe.js",
                { _, _ in RoomBoard.file(Browser.probeScript, type: "text/javascript; charset=utf-8") }
            ),
            (
                "/probe/board",
                { request, baseURL in
                    var board = request
                    board.path = "/board"
                    guard var response = page(board, baseURL) else { return nil }
                    let html = String(decoding: response.body, as: UTF8.self)
                    response.body = Array(
                        html.replacingOccurrences(
                            of: "</head>", with: "<script src=\"/probe/probe.js\" defer></script>\n</head>"
                        ).utf8)
                    return response
                }
            ),
        ]
        let server = FixtureServer(ownRoutes: probe + board.routes, priorityPaths: RoomBoard.priorityPaths)
        try server.start()
        let names = [
            "aoi", "ren", "mei", "sota", "さくら", "haruto", "yui", "minato", "hina", "riku", "Zoë", "O'Brien",
            "山田 太郎", "kaito", "yuna", "learner-with-long-name", "ichika", "takumi", "<script>", "nagisa",
        ]
        for (i, name) in names.enumerated() {
            let count = 1 + (i * 7) % exercises.count
            let reports = (0..<count).map { j in
                let passed = (i + j) % 3 != 0
                let exercise = exercises[(i + j) % exercises.count]
                let check = Self.failingCheck(exercise, i + j)
                // Every other learner's workshop is older: it sends the check's English name only.
                return BoardReport(
                    id: UUID().uuidString, exercise: exercise.id, passed: passed,
                    check: passed || i % 2 == 1 ? nil : check.id, failingCheck: passed ? nil : check.name,
                    secondsSpent: Double(60 * (j + 1) + 13 * i), worstFreezeSeconds: passed ? 0.02 : 0.8,
                    ageSeconds: Double(100 * (count - j) + 37 * i))
            }
            for batch in stride(from: 0, to: reports.count, by: BoardRules.maxReportsPerBatch) {
                let part = Array(reports[batch..<min(reports.count, batch + BoardRules.maxReportsPerBatch)])
                if case .refused(let status, let reason) = board.take(
                    BoardBatch(code: TestBoard.code, name: name, reports: part), from: "127.0.0.\(10 + i)",
                    isJoin: false)
                {
                    Issue.record("\(name): \(status) \(reason)")
                }
            }
        }
        return (board, server, folder, exercises.count)
    }

    /// The check learner-and-exercise `k` fails: one of the exercise's own, now and then the one
    /// the workshop checks first, and once in a while one this board's catalog does not know.
    static func failingCheck(_ exercise: BoardExercise, _ k: Int) -> (id: String, name: String) {
        if k % 11 == 5 { return ("a-check-from-a-newer-workshop", "a check from a newer workshop") }
        if k % 7 == 3 || exercise.checks.isEmpty {
            return (BoardCheck.id(for: "compiles with the check's driver"), "compiles with the check's driver")
        }
        let check = exercise.checks[k % exercise.checks.count]
        return (check.id, check.name)
    }

    /// What a page showed of the failing checks (its DOM after the script drew it): each failing
    /// cell's `data-check` and title, and the stuck column's check names.
    static func shownChecks(_ dom: String) -> (cells: [(id: String, title: String)], stuck: [String]) {
        let cells = dom.components(separatedBy: "data-state=\"failing\"").dropFirst().compactMap {
            cell -> (String, String)? in
            func attribute(_ name: String) -> String? {
                guard let start = cell.range(of: name + "=\"") else { return nil }
                return String(cell[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let id = attribute("data-check"), let title = attribute("title") else { return nil }
            return (id, title)
        }
        let stuck = dom.components(separatedBy: "<small>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        return (cells, stuck)
    }

    /// A check's name as a DOM dump writes it inside an attribute or text.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    @Test(
        "a Japanese room's board names every failing check in Japanese, from its catalog, at 1280 x 800")
    func japaneseRoom() throws {
        // The room's --lang is Japanese; the browser asks for nothing but its own default.
        let (board, server, folder, _) = try Self.fullRoom(language: .ja)
        defer {
            board.close()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let dump = try Browser.dom("\(server.baseURL.absoluteString)/probe/board?wait=1")
        #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
        let dom = dump.stdout
        #expect(dom.contains("<html lang=\"ja\">"), "\(dom.prefix(500))")
        #expect(dom.contains("data-state=\"live\""), "the board never drew: \(dom.prefix(2000))")
        let layout = try #require(Browser.Layout(dom: dom), "the probe wrote nothing")
        #expect(layout.innerWidth == Browser.projector.width && !layout.scrollsSideways, "\(layout)")

        let snapshot = board.snapshot()
        let failing = snapshot.learners.flatMap(\.cells).filter { !$0.passed }
        let shown = Self.shownChecks(dom)
        #expect(shown.cells.count == failing.count, "\(shown.cells.count) failing cells shown of \(failing.count)")
        let catalog = BoardExercise.load(root: Self.packageRoot)
        for cell in shown.cells {
            let known = catalog.lazy.compactMap { $0.check(cell.id) }.first
            if let known {
                // The Japanese name from the catalog, never the English one the learner's workshop sent.
                #expect(cell.title.contains(Self.escaped(known.nameJapanese)), "\(cell.id): \(cell.title)")
                #expect(!cell.title.contains(Self.escaped(known.name)), "\(cell.id): \(cell.title)")
            } else {
                #expect(cell.title.contains("この会場の一覧にないチェック"), "\(cell.id): \(cell.title)")
                #expect(!cell.title.contains("newer workshop"), "\(cell.title)")
            }
        }
        #expect(shown.cells.contains { $0.id == "a-check-from-a-newer-workshop" }, "the unknown check was not sent")
        #expect(
            shown.cells.contains { $0.id == BoardCheck.id(for: "compiles with the check's driver") },
            "the workshop's own check was not sent")
        // The stuck column, where the projector shows it first: Japanese names too.
        #expect(!shown.stuck.isEmpty)
        for name in shown.stuck {
            #expect(name.unicodeScalars.contains { $0.value >= 0x3040 }, "an English check name in Japanese: \(name)")
        }
        let file = Browser.screenshotFolder().appendingPathComponent("board-japanese-room.png").path
        if let failure = try Browser.picture(
            "Japanese room", of: "\(server.baseURL.absoluteString)/board?wait=1", to: file, language: "en")
        {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test(
        "20 learners and every exercise fit a 1280 x 800 projector: the page never scrolls sideways")
    func fitsAProjector() throws {
        let (board, server, folder, exercises) = try Self.fullRoom()
        defer {
            board.close()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(exercises >= 18, "the workshop's exercises are the columns")
        #expect(board.snapshot().learners.count == 20)
        let screenshots = Browser.screenshotFolder()
        for language in ["en", "ja"] {
            let url = "\(server.baseURL.absoluteString)/probe/board?lang=\(language)&wait=1"
            let dump = try Browser.dom(url)
            #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
            let dom = dump.stdout
            #expect(dom.contains("data-state=\"live\""), "\(language): the board never drew: \(dom.prefix(2000))")
            #expect(dom.components(separatedBy: "data-learner=\"").count - 1 == 20, "\(language)")
            #expect(dom.components(separatedBy: "<th class=\"exercise\"").count - 1 == exercises, "\(language)")
            let layout = try #require(Browser.Layout(dom: dom), "\(language): the probe wrote nothing")
            print("board at 1280 x 800 (\(language)): \(layout)")
            #expect(layout.innerWidth == Browser.projector.width, "\(layout)")
            #expect(layout.scrollWidth <= layout.innerWidth, "\(language): \(layout)")
            #expect(!layout.scrollsSideways, "\(language): \(layout)")
            // Each failing check by the catalog's name in the page's language (?lang here).
            let catalog = BoardExercise.load(root: Self.packageRoot)
            for cell in Self.shownChecks(dom).cells {
                guard let check = catalog.lazy.compactMap({ $0.check(cell.id) }).first else { continue }
                let name = language == "ja" ? check.nameJapanese : check.name
                #expect(cell.title.contains(Self.escaped(name)), "\(language): \(cell.id): \(cell.title)")
            }

            let file = screenshots.appendingPathComponent("board-20-learners-\(language).png").path
            if let failure = try Browser.picture(
                "board", of: "\(server.baseURL.absoluteString)/board?lang=\(language)&wait=1", to: file,
                language: language)
            {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    @Test(
        "an empty board shows the command to join, with the server's address and the room code")
    func emptyBoard() throws {
        let room = try TestBoard()
        defer { room.remove() }
        let url = "\(room.server.baseURL.absoluteString)/board?lang=en&wait=1"
        let dump = try Browser.dom(url)
        let join =
            "swift run workshop join \(room.server.baseURL.absoluteString) --name YOUR-NAME --code \(TestBoard.code)"
        #expect(dump.stdout.contains("<code>\(join)</code>"), "\(dump.stdout.prefix(3000))")
        #expect(!dump.stdout.contains("THIS-MACHINE"))
        let file = Browser.screenshotFolder().appendingPathComponent("board-empty.png").path
        if let failure = try Browser.picture("empty board", of: url, to: file) {
            Issue.record(Comment(rawValue: failure))
        }
    }
}
