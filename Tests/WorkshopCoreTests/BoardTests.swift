import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

@Suite("Room board: rules and state")
struct BoardRulesTests {
    @Test("a check's id is its English name in lower-case ASCII words and dashes; made again, the same")
    func checkIds() {
        #expect(BoardCheck.id(for: "fetches `width` icons at once") == "fetches-width-icons-at-once")
        #expect(BoardCheck.id(for: "the checks' library is built") == "the-checks-library-is-built")
        #expect(BoardCheck.id(for: "行頭に 、。」』）！？ が来ない") == "")
        #expect(BoardCheck.id(for: "  <img src=x onerror=alert(1)>  ") == "img-src-x-onerror-alert-1")
        for name in ["fetches `width` icons at once", "ＡＢ c", String(repeating: "ab ", count: 40)] {
            let id = BoardCheck.id(for: name)
            #expect(BoardCheck.id(for: id) == id && id.count <= BoardCheck.maxIdCharacters)
        }
    }

    @Test("names: letters of any script and punctuation, limited in length, no controls or invisible characters")
    func names() throws {
        for good in ["aoi", "あおい", "Zoë", "<script>", "O'Brien", "ren-2", "山田 太郎"] {
            #expect(throws: Never.self, "\(good)") { try BoardRules.name(good) }
        }
        #expect(try BoardRules.name("  aoi ") == "aoi")
        // "e" + a combining acute is kept as the one composed "é".
        #expect(try BoardRules.name("Zoe\u{301}").unicodeScalars.count == 3)
        let bad = [
            "", "   ", String(repeating: "a", count: 25), String(repeating: "あ", count: 10_000), "a\tb", "a\nb",
            "evil\u{202E}txt", "zero\u{200B}width", "a  b", "\u{0007}bell",
        ]
        for name in bad {
            #expect(throws: BoardRefusal.self, "\(name.prefix(20).debugDescription)") { try BoardRules.name(name) }
        }
    }

    @Test("reports: exercise ids, check ids and names, times and ids are checked and clamped; only the id is kept")
    func reports() throws {
        let good = TestBoard.report("A1", passed: false, check: "fetches off the main thread")
        var kept = good
        kept.failingCheck = nil
        #expect(try BoardRules.report(good) == kept)
        #expect(kept.check == "fetches-off-the-main-thread")
        // An older workshop's report names the check only: the board makes the id of it.
        let legacy = TestBoard.report("A1", passed: false, check: "fetches `width` icons at once", legacy: true)
        #expect(try BoardRules.report(legacy).check == "fetches-width-icons-at-once")
        #expect(try BoardRules.report(legacy).failingCheck == nil)
        // A pass carries no check, whatever was sent.
        #expect(try BoardRules.report(TestBoard.report("A1", passed: true)).check == nil)
        var report = good
        report.secondsSpent = -5
        report.ageSeconds = 1e12
        let clamped = try BoardRules.report(report)
        #expect(clamped.secondsSpent == 0 && clamped.ageSeconds == 7 * 24 * 3600)
        for change in [
            { (r: inout BoardReport) in r.exercise = "../x" }, { $0.exercise = "" }, { $0.exercise = "ＡＢ" },
            { $0.failingCheck = String(repeating: "x", count: 121) }, { $0.failingCheck = "two\nlines" },
            { $0.check = "Fetches Off" }, { $0.check = "<img>" }, { $0.check = "" }, { $0.check = "-a" },
            { $0.check = String(repeating: "x", count: 65) },
            { $0.secondsSpent = .nan }, { $0.worstFreezeSeconds = .infinity }, { $0.id = "<id>" },
        ] {
            var bad = good
            change(&bad)
            #expect(throws: BoardRefusal.self) { try BoardRules.report(bad) }
        }
        #expect(RoomCode.normalized("k7p-4qx") == "K7P4QX")
        #expect(RoomCode.normalized("O0O0O0") == nil)
        #expect(RoomCode.normalized(RoomCode.random()) != nil)
    }

    @Test("the learner failing the same check longest is first; a pass or another check starts over")
    func ordering() {
        var state = BoardState(exercises: TestBoard.exercises)
        state.apply(TestBoard.report("A1", passed: false, check: "one"), name: "aoi", checkedAt: 100)
        state.apply(TestBoard.report("A1", passed: false, check: "one"), name: "aoi", checkedAt: 400)
        state.apply(TestBoard.report("A1", passed: false, check: "one"), name: "ren", checkedAt: 200)
        state.apply(TestBoard.report("A1", passed: false, check: "two"), name: "ren", checkedAt: 300)
        state.apply(TestBoard.report("A1", passed: true), name: "mei", checkedAt: 250)
        state.apply(TestBoard.report("A2", passed: false, check: "x"), name: "mei", checkedAt: 260)
        state.apply(TestBoard.report("A1", passed: true), name: "sota", checkedAt: 50)
        // A report that ran before the one the board has (it was sent late) changes nothing shown.
        state.apply(TestBoard.report("A1", passed: false, check: "late"), name: "sota", checkedAt: 40)
        let board = state.snapshot(now: 1000)
        #expect(board.learners.map(\.name) == ["aoi", "mei", "ren", "sota"])
        #expect(board.learners.map(\.stuckSeconds) == [900, 740, 700, nil])
        #expect(board.learners[0].cells.first?.failingCheck == "one")  // the id "one" makes
        #expect(board.learners[0].cells.first?.checks == 2)
        #expect(board.learners[3].cells.first?.passed == true)
        #expect(board.columns.map(\.passed) == [2, 0, 0])
        #expect(board.columns.map(\.failing) == [2, 1, 0])
        #expect(board.version == 8)
    }
}

@Suite("Room board over HTTP")
struct BoardServerTests {
    @Test("reports come back as the board's JSON; the page speaks ?lang or Accept-Language")
    func reportsAndPage() throws {
        let room = try TestBoard()
        defer { room.remove() }
        #expect(try room.report("aoi", TestBoard.report("A1", passed: false, check: "the Screen never hangs")) == 200)
        #expect(try room.report("ren", TestBoard.report("A1", passed: true)) == 200)
        let join = try room.post("/board/join", TestBoard.batch(name: "mei", code: "testq7", []))
        #expect(join.0 == 200, "\(join.1)")
        let board = try room.state()
        #expect(board.learners.map(\.name) == ["aoi", "ren"])  // a join alone makes no row
        // The check by its id, named from the board's catalog in both languages.
        #expect(
            board.learners[0].cells == [
                BoardSnapshot.Cell(
                    exercise: "A1", passed: false, failingCheck: "the-screen-never-hangs",
                    failingCheckName: "the Screen never hangs", failingCheckNameJapanese: "Screen が固まらない",
                    failingForSeconds: board.learners[0].cells[0].failingForSeconds, secondsSpent: 60,
                    worstFreezeSeconds: 0.8, checks: 1)
            ])
        #expect(board.columns.map(\.passed) == [1, 0, 0])

        let english = try room.get("/board")
        #expect(english.status == 200)
        #expect(String(decoding: english.body, as: UTF8.self).contains("<html lang=\"en\">"))
        #expect(english.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        let japanese = try room.get("/board", headers: ["Accept-Language": "fr;q=0.9, ja;q=0.8, en;q=0.5"])
        #expect(String(decoding: japanese.body, as: UTF8.self).contains("<title>進捗ボード</title>"))
        let asked = try room.get("/board?lang=en", headers: ["Accept-Language": "ja"])
        #expect(String(decoding: asked.body, as: UTF8.self).contains("<title>Room board</title>"))
        #expect(try room.get("/board/board.js").status == 200)
        #expect(try room.get("/board/nothing").status == 404)
    }

    @Test("a room given a language speaks it on the page, unless ?lang asks for the other")
    func roomLanguage() throws {
        let room = try TestBoard(language: .ja)
        defer { room.remove() }
        let page = { (target: String, headers: [String: String]) in
            String(decoding: try room.get(target, headers: headers).body, as: UTF8.self)
        }
        #expect(try page("/board", ["Accept-Language": "en"]).contains("<html lang=\"ja\">"))
        #expect(try page("/board?lang=en", ["Accept-Language": "ja"]).contains("<html lang=\"en\">"))
        #expect(BoardPage.Language.pick(query: nil, room: .en, acceptLanguage: "ja") == .en)
        #expect(BoardPage.Language.pick(query: "ja", room: .en, acceptLanguage: nil) == .ja)
        #expect(BoardPage.Language.pick(query: nil, room: nil, acceptLanguage: "ja") == .ja)
    }

    @Test("an older workshop's report (the check's English name, no id) is named from the catalog like a new one")
    func olderClients() throws {
        let room = try TestBoard(language: .ja)
        defer { room.remove() }
        // As a workshop from before ids sends it: JSON without "check".
        let old = """
            {"code":"\(TestBoard.code)","name":"aoi","reports":[{"id":"r1","exercise":"A1","passed":false,\
            "failingCheck":"fetches `width` icons at once","secondsSpent":12,"ageSeconds":0}]}
            """
        #expect(try room.post("/board/report", Array(old.utf8)).0 == 200)
        let cell = try #require(try room.state().learners.first?.cells.first)
        #expect(cell.failingCheck == "fetches-width-icons-at-once")
        #expect(cell.failingCheckNameJapanese == "`width` 個のアイコンを同時に取得する")
        // The checks the workshop runs itself are named too, for any exercise.
        #expect(try room.report("ren", TestBoard.report("B1", passed: false, check: "your code finishes")) == 200)
        let ren = try #require(try room.state().learners.first { $0.name == "ren" }?.cells.first)
        #expect(ren.failingCheckNameJapanese == "あなたのコードが終わる")
    }

    @Test("a board kept by an older server (check names in the database) comes back with ids and catalog names")
    func olderDatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("board-old-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let first = try TestBoard(folder: folder)
            // What an older board wrote: the name in failing_check.
            let database = try SQLiteDatabase(path: folder.appendingPathComponent("board.sqlite").path)
            try database.run(
                """
                INSERT INTO board_reports (received_at, checked_at, address, learner, exercise, passed, failing_check,
                    seconds_spent) VALUES (1, 1, '127.0.0.1', 'mei', 'A2', 0, 'fetches off the main thread', 5)
                """)
            first.stop()
        }
        let again = try TestBoard(folder: folder, language: .ja)
        defer { again.stop() }
        let cell = try #require(try again.state().learners.first { $0.name == "mei" }?.cells.first)
        #expect(cell.failingCheck == "fetches-off-the-main-thread")
        #expect(cell.failingCheckNameJapanese == "メインスレッドの外で取得する")
    }

    @Test("the page carries the command to join: the address learners reach (as the server printed it) and the code")
    func joinLine() throws {
        let room = try TestBoard()
        defer { room.remove() }
        let page = { (headers: [String: String]) in
            String(decoding: try room.get("/board?lang=en", headers: headers).body, as: UTF8.self)
        }
        let base = room.server.baseURL.absoluteString
        #expect(try page([:]).contains("swift run workshop join \(base) --name YOUR-NAME --code \(TestBoard.code)"))
        // A Host that is no address is not put on the projector.
        #expect(try page(["Host": "evil<b>:1"]).contains("join http://THIS-MACHINE:PORT --name"))
        room.board.setLearnerURL("http://192.0.2.5:8080")
        #expect(try page([:]).contains("swift run workshop join http://192.0.2.5:8080 --name YOUR-NAME --code TESTQ7"))
    }

    @Test("a page waiting with after=V is answered as soon as a report changes the board")
    func livePoll() throws {
        let room = try TestBoard()
        defer { room.remove() }
        let version = room.board.version
        let answered = Locked<BoardSnapshot?>(nil)
        let done = DispatchSemaphore(value: 0)
        let port = room.server.port
        Thread.detachNewThread {
            let response = try? RawHTTP.get(port: port, path: "/board/state.json?after=\(version)&wait=20")
            answered.withLock {
                $0 = response.flatMap { try? JSONDecoder().decode(BoardSnapshot.self, from: Data($0.body)) }
            }
            done.signal()
        }
        #expect(room.board.wait(timeout: 10) { _, waiting in waiting == 1 }, "the poll never arrived")
        #expect(try room.report("aoi", TestBoard.report("A2", passed: true)) == 200)
        #expect(done.wait(timeout: .now() + 10) == .success, "the waiting poll was not answered")
        #expect(answered.current?.learners.map(\.name) == ["aoi"])
    }

    @Test("a report sent twice (its answer was lost) is kept once")
    func sentTwice() throws {
        let room = try TestBoard()
        defer { room.remove() }
        let report = TestBoard.report("A1", passed: false)
        #expect(try room.report("aoi", report) == 200)
        #expect(try room.report("aoi", report) == 200)
        #expect(try room.board.keptReports() == 1)
        #expect(try room.state().learners.first?.cells.first?.checks == 1)
        #expect(try room.report("ren", report) == 200)  // the same id from another learner is another report
        #expect(try room.board.keptReports() == 2)
    }

    @Test("hostile input is refused or kept as text; a flood from one address gets 429; the server and the board stay")
    func hostileInput() throws {
        let room = try TestBoard()
        defer { room.remove() }
        #expect(try room.report("aoi", TestBoard.report("A1", passed: true)) == 200)
        let good = TestBoard.report("A2", passed: false)
        let goodJSON = String(decoding: try JSONEncoder().encode(good), as: UTF8.self)
        let cases: [(String, [UInt8], Int)] = [
            ("no code", Array("{\"name\":\"x\",\"reports\":[\(goodJSON)]}".utf8), 400),
            ("wrong code", TestBoard.batch(name: "x", code: "WRONG2", [good]), 403),
            ("10 KB name", TestBoard.batch(name: String(repeating: "n", count: 10_240), [good]), 413),
            ("2 KB name", TestBoard.batch(name: String(repeating: "n", count: 2_000), [good]), 400),
            ("long script tag", TestBoard.batch(name: "<script>alert(1)</script>", [good]), 400),
            ("not UTF-8", [0x7B, 0xFF, 0xFE, 0x22, 0xC3, 0x28, 0x7D], 400),
            (
                "a NUL in the name",
                Array("{\"code\":\"\(TestBoard.code)\",\"name\":\"a\\u0000b\",\"reports\":[\(goodJSON)]}".utf8),
                400
            ),
            ("not JSON", Array("<script>alert(1)</script>".utf8), 400),
            ("unknown exercise", TestBoard.batch(name: "x", [TestBoard.report("Z9", passed: true)]), 400),
            ("no reports", TestBoard.batch(name: "x", []), 400),
            ("21 reports", TestBoard.batch(name: "x", Array(repeating: good, count: 21)), 400),
            (
                "a check name with a line feed",
                TestBoard.batch(name: "x", [TestBoard.report("A1", passed: false, check: "a\nb")]), 400
            ),
        ]
        for (what, body, status) in cases {
            let (got, text) = try room.post("/board/report", body)
            #expect(got == status, "\(what): \(got) \(text)")
        }
        #expect(try room.get("/board/report").status == 405)
        // A lone surrogate escaped in JSON: refused, or read as U+FFFD; never a crash.
        let surrogate = "{\"code\":\"\(TestBoard.code)\",\"name\":\"x\\ud800\",\"reports\":[\(goodJSON)]}"
        #expect([200, 400].contains(try room.post("/board/report", Array(surrogate.utf8)).0))
        // A short script tag is a name like any other: kept as the text it is (the page shows it as text).
        #expect(
            try room.report("<script>", TestBoard.report("A1", passed: false, check: "<img src=x onerror=alert(1)>"))
                == 200)
        let board = try room.state()
        #expect(Set(board.learners.map(\.name)).isSuperset(of: ["aoi", "<script>"]))
        #expect(board.learners.count <= 3)
        // Not so a check's name: the board keeps the id it makes of it, and names no check it
        // does not know.
        let hostile = board.learners.first { $0.name == "<script>" }?.cells.first
        #expect(hostile?.failingCheck == "img-src-x-onerror-alert-1")
        #expect(hostile?.failingCheckName == nil && hostile?.failingCheckNameJapanese == nil)
        #expect(try room.get("/board/state.json").headers["content-type"] == "application/json")

        // 1,000 reports as fast as 8 kept-alive connections send them, all from 127.0.0.1.
        let before = try room.board.keptReports()
        let statuses = Locked<[Int: Int]>([:])
        let failures = Locked<[String]>([])
        let started = monotonicSeconds()
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            do {
                let connection = try HTTPConnection(host: "127.0.0.1", port: room.server.port, timeout: 10)
                for i in 0..<125 {
                    let body = TestBoard.batch(name: "flood\(client)", [TestBoard.report("A1", passed: i % 2 == 0)])
                    let (status, _) = try room.post("/board/report", body, connection: connection)
                    statuses.withLock { $0[status, default: 0] += 1 }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        let seconds = monotonicSeconds() - started
        #expect(failures.current.isEmpty, "\(failures.current)")
        let accepted = statuses.current[200] ?? 0
        #expect(accepted + (statuses.current[429] ?? 0) == 1000, "\(statuses.current)")
        // The burst (30), then 5 a second for as long as the flood lasted, with a margin.
        #expect(accepted <= 30 + Int(seconds * 5) + 5, "\(accepted) accepted in \(seconds) s")
        #expect(try room.board.keptReports() == before + accepted)
        #expect(room.events.current.filter { $0.contains("too many requests") }.count == 1, "one line per flood")
        print("board flood: 1000 reports in \(String(format: "%.2f", seconds)) s, \(accepted) accepted, the rest 429")

        // The server is up and the board intact.
        #expect(String(decoding: try room.get("/health").body, as: UTF8.self) == "ok\n")
        #expect(try room.state().learners.contains { $0.name == "aoi" && $0.cells.first?.passed == true })
    }

    /// The latency (30 s) is three times what the client waits (10 s): a board request it
    /// touched gets no answer at all, whatever the load (a bound on the seconds would be a wall
    /// clock that load stretches).
    @Test("the lesson API and the board never touch: faults, latency and counters stay apart")
    func apart() throws {
        var knobs = ServerKnobs()
        knobs.fault = .status(500)
        knobs.latencySeconds = 30
        let room = try TestBoard(knobs: knobs)
        defer { room.remove() }
        #expect(
            try room.post(
                "/board/report?fault=drop&latency=30",
                TestBoard.batch(name: "aoi", [TestBoard.report("A1", passed: true)])
            ).0 == 200)
        #expect(try room.get("/board/state.json?fault=500").status == 200)
        #expect(room.server.stats.requests == 0)
        #expect(try room.get("/timeline?count=1&latency=0").status == 500)  // the lesson API still faulted
        #expect(room.server.stats.requests == 1)
    }
}
