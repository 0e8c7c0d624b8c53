import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

@testable import WorkshopCore
@testable import WorkshopServer
@testable import workshop

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A room's board on an in-process fixture server, with the workshop's exercises as columns.
struct RoomServer {
    static let code = "R00MQ7".replacingOccurrences(of: "0", with: "W")
    let board: RoomBoard
    let server: FixtureServer
    let folder: URL

    init(root: URL, settings: RoomBoard.Settings = RoomBoard.Settings(), port: UInt16 = 0) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("room-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        board = try RoomBoard(
            databasePath: folder.appendingPathComponent("board.sqlite").path,
            exercises: BoardExercise.load(root: root), code: Self.code, settings: settings)
        server = FixtureServer(ownRoutes: board.routes)
        try server.start(port: port)
    }

    var url: String { server.baseURL.absoluteString }

    func stop() {
        board.close()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A report as any HTTP client sends it; the status.
    func post(_ name: String, _ reports: [BoardReport]) throws -> Int {
        let body = try JSONEncoder().encode(BoardBatch(code: Self.code, name: name, reports: reports))
        let connection = try HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
        let head = "POST /board/report HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n"
        return try connection.exchange(head + String(decoding: body, as: UTF8.self)).status
    }
}

/// A port on 127.0.0.1 that takes connections and never answers: a board that hangs. Any
/// thread may close it.
final class SilentListener: Sendable {
    let fd: Int32
    let port: UInt16
    private let closed = Locked(false)

    init() throws {
        let socketFD = socket(AF_INET, Sockets.stream, 0)
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketFD, 16) == 0 else { throw TestWorkspaceFailure(description: "cannot listen") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        fd = socketFD
        port = UInt16(bigEndian: actual.sin_port)
    }

    /// Stops listening (at most once).
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            #if canImport(Glibc)
                _ = Glibc.close(fd)
            #else
                _ = Darwin.close(fd)
            #endif
            closed = true
        }
    }
}

@Suite("workshop join, leave, and check with a board")
struct BoardCommandTests {
    static func progress(_ workspace: TestWorkspace) throws -> [String: Any] {
        let data = workspace.contents(".workshop-progress") ?? Data("{}".utf8)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(
        "join checks the code and the name with the board, remembers it; leave forgets it", )
    func joinAndLeave() async throws {
        let workspace = try TestWorkspace()
        let room = try RoomServer(root: workspace.root)
        defer { room.stop() }
        let run = { (arguments: [String], changes: [String: String?]) in
            try await WorkshopBinary.run(arguments, root: workspace.root, changes: changes, timeout: 60)
        }

        let wrong = try await run(["join", room.url, "--name", "aoi", "--code", "WRWNGC"], [:])
        #expect(wrong.status == 1 && wrong.stderr.contains("wrong room code"), "\(wrong.stderr)")
        let badName = try await run(["join", room.url, "--name", "a\u{202E}b", "--code", RoomServer.code], [:])
        #expect(badName.status == 64 && badName.stderr.contains("--name"), "\(badName.stderr)")
        let badCode = try await run(["join", room.url, "--name", "aoi", "--code", "!"], [:])
        #expect(badCode.status == 64 && badCode.stderr.contains("--code"), "\(badCode.stderr)")
        let badURL = try await run(["join", "ftp://x", "--name", "aoi", "--code", RoomServer.code], [:])
        #expect(badURL.status == 64 && badURL.stderr.contains("http://HOST:PORT"), "\(badURL.stderr)")
        let silent = try SilentListener()
        silent.close()  // now nothing listens there
        let away = try await run(
            ["join", "http://127.0.0.1:\(silent.port)", "--name", "aoi", "--code", RoomServer.code], [:])
        #expect(away.status == 1 && away.stderr.contains("could not reach the board"), "\(away.stderr)")
        #expect(try Self.progress(workspace)["board"] == nil)

        let joined = try await run(
            ["join", room.url, "--name", " さくら ", "--code", RoomServer.code.lowercased()], ["LANG": "ja_JP.UTF-8"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("ボードに さくら として参加しました"), "\(joined.stdout)")
        let listed = try await run(["list"], [:])
        #expect(listed.stdout.contains("Reporting your checks to the board at \(room.url) as さくら"), "\(listed.stdout)")
        let board = try #require(try Self.progress(workspace)["board"] as? [String: Any])
        #expect(board["name"] as? String == "さくら")
        #expect(board["code"] as? String == RoomServer.code)
        #expect(board["url"] as? String == room.url)

        let left = try await run(["leave"], [:])
        #expect(left.status == 0 && left.stdout.contains("Left the board at \(room.url)"), "\(left.stdout)")
        #expect(try Self.progress(workspace)["board"] == nil)
        let again = try await run(["leave"], [:])
        #expect(again.stdout.contains("You have not joined a board"))
    }

    /// Runs `workshop send`: whatever a check could not deliver in its short wait goes now.
    static func deliver(_ workspace: TestWorkspace) async throws {
        let sent = try await WorkshopBinary.run(["send"], root: workspace.root, timeout: 60)
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(
            sent.stdout.contains("Nothing waits for the board") || sent.stdout.contains("(sent to the room's board)"),
            "\(sent.stdout)")
    }

    /// One check's time and output.
    static func timedCheck(_ exercise: Exercise, _ workspace: TestWorkspace) async throws -> (Double, String) {
        // The check's own time: not the wait for one of the slots the suites' children share.
        let outcome = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, timeout: 120)
        return (outcome.seconds, outcome.stdout)
    }

    /// The progress file with `board` set to `membership` and its `pending` reports (nil: no board).
    static func setBoard(_ membership: String?, pending: Any? = nil, in workspace: TestWorkspace) throws {
        var progress = try Self.progress(workspace)
        var board = try membership.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        if let pending { board?["pending"] = pending }
        progress["board"] = board
        try workspace.write(".workshop-progress", try JSONSerialization.data(withJSONObject: progress))
    }
}

/// The slow tier (`swift test --filter SlowTests`): a whole check with a board that does not
/// answer, beside one without a board (BoardCommandTests' helpers). How long the board's part
/// takes is decided where it is spent (BoardWaitTests: the check's one post, 0.3 s at most);
/// here, what the learner sees: the verdict, the one line that says why the board did not take
/// it (the deadline, or the refusal), and the reports kept for later. The whole checks' times
/// are printed: on a busy machine they vary by more than the board's part.
@Suite("workshop check with a board that does not answer")
struct BoardCommandSlowTests {
    @Test(
        "a board that does not answer costs a check its 0.3 s post; the verdict is printed; the reports go later", )
    func unreachableBoard() async throws {
        let workspace = try TestWorkspace()
        let exercise = Subject.pure
        _ = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, timeout: 300)  // compiled once
        // Joined to a board that hangs (it takes the connection and never answers), and not
        // joined, in turns: the fastest of each, the least disturbed by other load.
        let silent = try SilentListener()
        defer { silent.close() }
        let membership =
            "{\"url\": \"http://127.0.0.1:\(silent.port)\", \"name\": \"aoi\", \"code\": \"\(RoomServer.code)\"}"
        var alone = Double.infinity
        var hanging = Double.infinity
        var waiting: Any?  // the reports not sent yet, kept across the turns
        for _ in 0..<4 {
            try BoardCommandTests.setBoard(nil, in: workspace)
            alone = min(alone, try await BoardCommandTests.timedCheck(exercise, workspace).0)
            try BoardCommandTests.setBoard(membership, pending: waiting, in: workspace)
            let (seconds, output) = try await BoardCommandTests.timedCheck(exercise, workspace)
            hanging = min(hanging, seconds)
            let lines = output.split(separator: "\n")
            #expect(lines.last?.hasPrefix("exercise \(exercise.id): ") == true, "\(output)")
            // Given up at the check's deadline (`BoardSync.checkTimeout`), and said so.
            #expect(lines.dropLast().last?.contains("the room's board did not take it") == true, "\(output)")
            #expect(output.contains("no answer within \(BoardSync.checkTimeout) s"), "\(output)")
            waiting = (try BoardCommandTests.progress(workspace)["board"] as? [String: Any])?["pending"]
        }

        // Nothing listening at all (connection refused): said so, no wait for a deadline.
        silent.close()
        var refused = Double.infinity
        for _ in 0..<3 {
            let (seconds, output) = try await BoardCommandTests.timedCheck(exercise, workspace)
            refused = min(refused, seconds)
            #expect(output.contains("connection refused"), "\(output)")
        }
        print(
            String(
                format: "board unreachable: fastest check %.3f s alone, %.3f s with a hanging board (%+.3f s), "
                    + "%.3f s with nothing listening (%+.3f s)",
                alone, hanging, hanging - alone, refused, refused - alone))
        let board = try #require(try BoardCommandTests.progress(workspace)["board"] as? [String: Any])
        #expect((board["pending"] as? [Any])?.count == 7)

        // The board comes back on that port: the next check (or, if the machine is too busy for
        // its short wait, `send`) delivers all eight, each kept once.
        let room = try RoomServer(root: workspace.root, port: silent.port)
        defer { room.stop() }
        let back = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, timeout: 120)
        #expect(back.stdout.split(separator: "\n").last?.hasPrefix("exercise \(exercise.id): ") == true)
        try await BoardCommandTests.deliver(workspace)
        #expect(try room.board.keptReports() == 8)
        let cell = try #require(room.board.snapshot().learners.first?.cells.first)
        #expect(cell.checks == 8 && !cell.passed && cell.exercise == exercise.id)
        let pending =
            try #require(try BoardCommandTests.progress(workspace)["board"] as? [String: Any])["pending"] as? [Any]
        #expect(pending?.isEmpty == true)
    }
}

@Suite("workshop check: the time spent on an exercise")
struct TimeSpentTests {
    /// The reports waiting for the board (it is away): what each check would have told it.
    static func pending(_ workspace: TestWorkspace) throws -> [[String: Any]] {
        let board = try #require(try BoardCommandTests.progress(workspace)["board"] as? [String: Any])
        return (board["pending"] as? [[String: Any]])?.compactMap { $0["report"] as? [String: Any] } ?? []
    }

    /// Moves the exercise's recorded times `seconds` into the past, as if that long had gone by.
    static func age(_ exercise: Exercise, by seconds: Double, in workspace: TestWorkspace) throws {
        var progress = try BoardCommandTests.progress(workspace)
        var exercises = progress["exercises"] as? [String: Any] ?? [:]
        var record = exercises[exercise.id] as? [String: Any] ?? [:]
        for key in ["startedAt", "passedAt"] {
            if let time = record[key] as? Double { record[key] = time - seconds }
        }
        exercises[exercise.id] = record
        progress["exercises"] = exercises
        try workspace.write(".workshop-progress", try JSONSerialization.data(withJSONObject: progress))
    }

    @Test(
        "the time spent stops at the pass (checking again adds nothing) and starts again only when a later check fails",
    )
    func stopsAtThePass() async throws {
        let workspace = try TestWorkspace()
        let exercise = Subject.pure
        let clock = Stopwatch()
        // Joined to a board nobody listens on: every report waits in the progress file, to be read.
        let away = try SilentListener()
        away.close()
        try BoardCommandTests.setBoard(
            "{\"url\": \"http://127.0.0.1:\(away.port)\", \"name\": \"aoi\", \"code\": \"\(RoomServer.code)\"}",
            in: workspace)
        func check() async throws -> Subprocess.Outcome {
            try await workspace.run(["check", exercise.id], timeout: 300)
        }
        // Started 30 s ago, solved now: the pass stops the time at about 30 s.
        _ = try await WorkshopBinary.run(["start", exercise.id], root: workspace.root, timeout: 60)
        try Self.age(exercise, by: 30, in: workspace)
        try workspace.solve(exercise)
        #expect(try await check().status == 0)
        // Ten minutes later the learner checks it again (as after `join`): still about 30 s.
        try Self.age(exercise, by: 600, in: workspace)
        #expect(try await check().status == 0)
        // The file breaks: the time counts again from this failing check, not from the pass.
        try workspace.write(exercise.paths[0], try workspace.shipped(exercise))
        #expect(try await check().status != 0)
        try workspace.solve(exercise)
        #expect(try await check().status == 0)

        let spent = try Self.pending(workspace).map { $0["secondsSpent"] as? Double ?? -1 }
        let passed = try Self.pending(workspace).map { $0["passed"] as? Bool }
        #expect(passed == [true, true, false, true])
        // Each at least the 30 s before the first pass, and at most that plus this test's own
        // time: never the 10 minutes between the pass and the check after it.
        let bound = 30 + clock.elapsed
        for (index, seconds) in spent.enumerated() {
            #expect(seconds >= 30 && seconds <= bound, "report \(index + 1): \(seconds) s of at most \(bound) s")
        }
        #expect(abs(spent[1] - spent[0]) < 0.01, "checking a passed exercise again added time: \(spent)")
        let record = try #require(
            (try BoardCommandTests.progress(workspace)["exercises"] as? [String: Any])?[exercise.id] as? [String: Any])
        #expect(record["passedAt"] is Double, "the progress file keeps the pass time")
        #expect((record["pausedSeconds"] as? Double ?? 0) >= 600)
    }
}

@Suite("A room of 20 learners on one board")
struct BoardRoomSlowTests {
    /// What the board should show for one learner and exercise.
    struct Expected: Equatable {
        var passed: Bool
        var failingCheck: String?
        var checks: Int
    }

    @Test(
        "3 learners check for real, 17 report over HTTP: the board's JSON has every row, cell, count and the stuck first",
    )
    func twentyLearners() async throws {
        let exercises = ExerciseCatalog.exercises
        let pure = Subject.pure
        var settings = RoomBoard.Settings()
        settings.burst = 1000  // the whole room comes from 127.0.0.1 here
        let workspaces = try (0..<3).map { _ in try TestWorkspace() }
        let room = try RoomServer(root: workspaces[0].root, settings: settings)
        defer { room.stop() }
        var expected: [String: [String: Expected]] = [:]

        // Three learners with the real CLI: aoi fails, ren passes, mei fails then passes.
        let names = ["aoi", "ren", "mei"]
        var aoiFailing = ""
        for (workspace, name) in zip(workspaces, names) {
            let run = { (arguments: [String]) in
                try await WorkshopBinary.run(arguments, root: workspace.root, timeout: 300)
            }
            let joined = try await run(["join", room.url, "--name", name, "--code", RoomServer.code])
            #expect(joined.status == 0, "\(joined.stderr)")
            if name != "aoi" && name != "mei" { try workspace.solve(pure) }
            let first = try await run(["check", pure.id])
            #expect(first.stdout.contains("room's board"), "\(first.stdout)")
            if name == "aoi" {
                let failLine = first.stdout.split(separator: "\n").first { $0.contains("FAIL  ") }
                aoiFailing = failLine.map { String($0.split(separator: "FAIL  ", maxSplits: 1).last ?? "") } ?? ""
                expected[name] = [
                    pure.id: Expected(passed: false, failingCheck: BoardCheck.id(for: aoiFailing), checks: 1)
                ]
            } else if name == "mei" {
                try workspace.solve(pure)
                let second = try await run(["check", pure.id])
                #expect(second.status == 0, "\(second.stdout)")
                expected[name] = [pure.id: Expected(passed: true, failingCheck: nil, checks: 2)]
            } else {
                expected[name] = [pure.id: Expected(passed: true, failingCheck: nil, checks: 1)]
            }
            try await BoardCommandTests.deliver(workspace)  // a check on a busy machine may leave it to `send`
        }
        #expect(!aoiFailing.isEmpty)

        // Seventeen more over HTTP, each 1 to 4 checks of different exercises, older ones first;
        // learner i's last check ran i hours ago, so the longer stuck have the larger i, and even
        // learner01 longer than aoi, whose check ran at the start of this test (minutes ago, when
        // the suites' other children keep the slots busy: with 100 x i s, it once was longer).
        var stuckOrder: [String] = []
        for i in 1...17 {
            let name = String(format: "learner%02d", i)
            let count = 1 + i % 4
            var mine: [String: Expected] = [:]
            var reports: [BoardReport] = []
            for j in 0..<count {
                let exercise = exercises[(i + j) % exercises.count]
                let passed = (i + j) % 3 == 0
                let check = exercise.checks[(i + j) % exercise.checks.count]
                reports.append(
                    BoardReport(
                        id: UUID().uuidString, exercise: exercise.id, passed: passed,
                        check: passed ? nil : BoardCheck.id(for: check), secondsSpent: Double(60 * j),
                        worstFreezeSeconds: passed ? 0.01 : 0.4, ageSeconds: Double(3_600 * i + 10 * (count - j))))
                mine[exercise.id] = Expected(
                    passed: passed, failingCheck: passed ? nil : BoardCheck.id(for: check), checks: 1)
            }
            // Half send their checks one by one, half as one late batch (as after the board was away).
            if i % 2 == 0 {
                for report in reports { #expect(try room.post(name, [report]) == 200) }
            } else {
                #expect(try room.post(name, reports) == 200)
            }
            expected[name] = mine
            if reports.last?.passed == false { stuckOrder.insert(name, at: 0) }
        }

        let json = try RawHTTP.get(port: room.server.port, path: "/board/state.json")
        let board = try JSONDecoder().decode(BoardSnapshot.self, from: Data(json.body))
        #expect(board.learners.count == 20)
        #expect(Set(board.learners.map(\.name)) == Set(expected.keys))
        for learner in board.learners {
            let shown = Dictionary(
                uniqueKeysWithValues: learner.cells.map {
                    ($0.exercise, Expected(passed: $0.passed, failingCheck: $0.failingCheck, checks: $0.checks))
                })
            #expect(shown == expected[learner.name], "\(learner.name)")
        }
        // Every failing check is named from the catalog, in both languages.
        for learner in board.learners {
            for cell in learner.cells where !cell.passed {
                let exercise = try #require(exercises.first { $0.id == cell.exercise })
                let name = try #require(
                    exercise.checks.first { BoardCheck.id(for: $0) == cell.failingCheck }, "\(learner.name)")
                #expect(cell.failingCheckName == name)
                #expect(cell.failingCheckNameJapanese == exercise.japaneseCheckNames[name])
            }
        }
        // The stuck first, longest first (aoi, stuck a moment, after the others), then by name.
        let stuck = board.learners.filter { $0.stuckSeconds != nil }.map(\.name)
        #expect(stuck == stuckOrder + ["aoi"])
        let rest = board.learners.filter { $0.stuckSeconds == nil }.map(\.name)
        #expect(rest == rest.sorted())
        #expect(board.learners.map(\.name) == stuck + rest)
        // The room's count per exercise.
        #expect(board.columns.map(\.exercise.id) == exercises.map(\.id))
        for column in board.columns {
            let cells = expected.values.compactMap { $0[column.exercise.id] }
            #expect(column.passed == cells.filter(\.passed).count, "\(column.exercise.id)")
            #expect(column.failing == cells.filter { !$0.passed }.count, "\(column.exercise.id)")
        }
        // What a real check sent: no freeze measured for a pure exercise, a time spent of seconds.
        let aoi = try #require(board.learners.first { $0.name == "aoi" }?.cells.first)
        #expect(aoi.worstFreezeSeconds == nil)
        #expect(aoi.secondsSpent >= 0 && aoi.secondsSpent < 600)
        print(
            "board room: \(board.learners.count) learners, version \(board.version), \(json.body.count) bytes of JSON")
    }
}

/// Boards that are not what they claim: a learner's `join` or `check` may meet anything at the
/// address it was given on the room's network.
enum HostileBoard: String, CaseIterable, CustomStringConvertible {
    /// Takes the connection and never answers.
    case silent
    /// Answers 500 with 10 MB of text.
    case huge500
    /// Answers 403 with escape sequences that would set the terminal's title, clear the screen
    /// and colour the rest, C1 controls and a bidi override, over several lines.
    case escapes403
    /// Answers 302 to the very same address, every time.
    case redirectLoop

    var description: String { rawValue }

    static let tenMegabytes: [UInt8] =
        Array("the board broke\n".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: 10 * 1024 * 1024)
    static let escapes: [UInt8] = Array(
        ("\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[Hwrong room code\u{1B}[31m!\u{1B}[0m \u{9B}2J\u{202E}reversed"
            + "\u{1B}]8;;http://example.invalid/\u{1B}\\a link\u{1B}]8;;\u{1B}\\\r\nsecond line\n"
            + String(repeating: "\u{1B}[1A\u{1B}[2K", count: 500)).utf8)

    /// A server playing this board; `stop` ends it.
    final class Running: Sendable {
        let url: String
        let stop: @Sendable () -> Void

        init(_ board: HostileBoard) throws {
            if board == .silent {
                let listener = try SilentListener()
                url = "http://127.0.0.1:\(listener.port)"
                let closer = Locked<SilentListener?>(listener)  // Locked: `stop` may come from any thread
                stop = { closer.withLock { $0?.close() } }
                return
            }
            let route: FixtureServer.Route = { request, _ in
                switch board {
                case .huge500:
                    return HTTPResponse(
                        status: 500, contentType: "text/plain", body: HostileBoard.tenMegabytes, compressible: false)
                case .escapes403:
                    return HTTPResponse(
                        status: 403, contentType: "text/plain", body: HostileBoard.escapes, compressible: false)
                case .redirectLoop, .silent:
                    var response = HTTPResponse.text(302, "see there")
                    response.headers.append(("Location", request.target))
                    return response
                }
            }
            let server = FixtureServer(ownRoutes: [("/", route)])
            try server.start()
            url = server.baseURL.absoluteString
            stop = { server.stop() }
        }
    }
}

/// What a terminal would act on, or a reader not see: every control character but the line
/// feed (ESC, BEL, CR, DEL, the C1 ones such as CSI) and every invisible format character
/// (a bidi override).
func controlCharacters(in text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { scalar in
        scalar != "\n" && [.control, .format].contains(scalar.properties.generalCategory)
    }
}

@Suite("workshop join against hostile boards")
struct HostileBoardJoinTests {
    @Test(
        "silent, 10 MB 500, escape sequences in a 403, a redirect loop: join ends within 3.5 s, prints one plain line",
        arguments: HostileBoard.allCases)
    func join(_ kind: HostileBoard) async throws {
        let workspace = try TestWorkspace()
        let board = try HostileBoard.Running(kind)
        defer { board.stop() }
        let outcome = try await WorkshopBinary.run(
            ["join", board.url, "--name", "aoi", "--code", RoomServer.code], root: workspace.root, timeout: 60)
        let seconds = outcome.seconds  // the join's own: not the wait for a slot before it started
        let printed = outcome.stdout + outcome.stderr
        print(String(format: "hostile board %@: join ended after %.2f s and printed: ", "\(kind)", seconds) + printed)
        #expect(outcome.status == 1, "\(kind): \(printed.prefix(500))")
        // Its 2.5 s wait is held where it is spent (BoardWaitTests: the post under 3 s). A whole
        // process adds its start, which a busy machine stretches: here only a bound no correct
        // join comes near, and that a wait for a network default (60 s) would cross.
        #expect(seconds < 15, "\(kind): join took \(seconds) s")
        #expect(printed.utf8.count <= 2048, "\(kind): \(printed.utf8.count) bytes printed")
        #expect(controlCharacters(in: printed).isEmpty, "\(kind): \(printed.debugDescription.prefix(500))")
        #expect(printed.split(separator: "\n").count == 1, "\(kind): \(printed)")
        #expect(try BoardCommandTests.progress(workspace)["board"] == nil, "\(kind): joined anyway")
        let said: [HostileBoard: String] = [
            .silent: "no answer within 2.5 s", .huge500: "the board broke",
            .escapes403: "wrong room code! reversed", .redirectLoop: "a redirect (HTTP 302), not followed",
        ]
        #expect(printed.contains(said[kind] ?? "?"), "\(kind): \(printed)")
        #expect(!printed.contains("pwned") && !printed.contains("second line"), "\(kind): \(printed)")
    }
}

/// Whole checks against each hostile board: what the learner sees. How long the board's part
/// takes is held where it is spent (BoardWaitTests: the check's post, under 0.5 s); whole
/// checks' times are printed, since on a busy machine they vary by more than that.
@Suite("Slow: a check against hostile boards")
struct HostileBoardCheckSlowTests {
    @Test(
        "silent, 10 MB 500, escape sequences in a 403, a redirect loop: a check prints one board line, under 2 KB more, no control byte",
    )
    func check() async throws {
        let workspace = try TestWorkspace()
        let exercise = Subject.pure
        _ = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, timeout: 300)  // compiled once
        func timedCheck() async throws -> (Double, String) {
            let outcome = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root, timeout: 120)
            return (outcome.seconds, outcome.stdout + outcome.stderr)
        }
        for kind in HostileBoard.allCases {
            let board = try HostileBoard.Running(kind)
            defer { board.stop() }
            let membership = "{\"url\": \"\(board.url)\", \"name\": \"aoi\", \"code\": \"\(RoomServer.code)\"}"
            // Not joined and joined, in turns: the fastest of each, the least disturbed by other load.
            var alone = (seconds: Double.infinity, output: "")
            var joined = (seconds: Double.infinity, output: "")
            for _ in 0..<3 {
                try BoardCommandTests.setBoard(nil, in: workspace)
                let plain = try await timedCheck()
                if plain.0 < alone.seconds { alone = plain }
                try BoardCommandTests.setBoard(membership, in: workspace)
                let hostile = try await timedCheck()
                if hostile.0 < joined.seconds { joined = hostile }
            }
            let extra = joined.output.utf8.count - alone.output.utf8.count
            let boardLines = joined.output.split(separator: "\n").filter { $0.contains("board") }
            print(
                String(
                    format: "hostile board %@: fastest check %.3f s alone, %.3f s joined (%+.3f s), %d bytes more: ",
                    "\(kind)", alone.seconds, joined.seconds, joined.seconds - alone.seconds, extra)
                    + boardLines.joined(separator: " | "))
            #expect(extra <= 2048, "\(kind): \(extra) bytes more:\n\(joined.output.prefix(3000))")
            #expect(
                controlCharacters(in: joined.output).isEmpty, "\(kind): \(joined.output.debugDescription.prefix(800))")
            #expect(boardLines.count == 1, "\(kind): \(joined.output)")
            #expect(!joined.output.contains("pwned"), "\(kind)")
        }
    }
}
