import Foundation

@testable import WorkshopCore
@testable import WorkshopServer

/// A room's board on an in-process fixture server, kept in a throwaway folder.
final class TestBoard: Sendable {
    static let exercises = [
        BoardExercise(
            id: "A1", title: "first", titleJapanese: "最初",
            checks: [
                BoardCheck(name: "the Screen never hangs", nameJapanese: "Screen が固まらない"),
                BoardCheck(name: "fetches `width` icons at once", nameJapanese: "`width` 個のアイコンを同時に取得する"),
            ]),
        BoardExercise(
            id: "A2", title: "second", titleJapanese: "二番目",
            checks: [BoardCheck(name: "fetches off the main thread", nameJapanese: "メインスレッドの外で取得する")]),
        BoardExercise(id: "B1", title: "third", titleJapanese: "三番目"),
    ]
    static let code = "TESTQ7"

    let folder: URL
    let board: RoomBoard
    let server: FixtureServer
    let events = Locked<[String]>([])

    init(
        settings: RoomBoard.Settings = RoomBoard.Settings(), knobs: ServerKnobs = ServerKnobs(),
        folder: URL? = nil, language: Language? = nil
    ) throws {
        self.folder =
            folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("board-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        let events = events
        board = try RoomBoard(
            databasePath: self.folder.appendingPathComponent("board.sqlite").path, exercises: Self.exercises,
            code: Self.code, language: language, settings: settings,
            onEvent: { line in events.withLock { $0.append(line) } })
        server = FixtureServer(knobs: knobs, ownRoutes: board.routes, priorityPaths: RoomBoard.priorityPaths)
        try server.start()
    }

    func stop() {
        board.close()
        server.stop()
    }

    func remove() {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A batch as JSON, the way `workshop check` sends it.
    static func batch(
        name: String, code: String = TestBoard.code, _ reports: [BoardReport]
    ) -> [UInt8] {
        Array((try? JSONEncoder().encode(BoardBatch(code: code, name: name, reports: reports))) ?? Data())
    }

    /// A report as `workshop check` sends it: the failing check's id, and its English name for a
    /// board from before ids (`legacy`: the name only, as an older `workshop` sent it).
    static func report(
        _ exercise: String, passed: Bool, check: String? = nil, spent: Double = 60, legacy: Bool = false
    ) -> BoardReport {
        let name = passed ? nil : check ?? "a check"
        return BoardReport(
            id: UUID().uuidString, exercise: exercise, passed: passed,
            check: legacy ? nil : name.map(BoardCheck.id(for:)), failingCheck: name, secondsSpent: spent,
            worstFreezeSeconds: passed ? 0.02 : 0.8)
    }

    /// POSTs `body` on a new connection; the status and the body as text.
    func post(_ path: String, _ body: [UInt8], connection: HTTPConnection? = nil) throws -> (Int, String) {
        let open = try connection ?? HTTPConnection(host: "127.0.0.1", port: server.port, timeout: 10)
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(body.count)\r\n\r\n"
        try open.send(Array(head.utf8) + body)
        let answer = try open.readAnswer()
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    func report(_ name: String, _ report: BoardReport) throws -> Int {
        try post("/board/report", Self.batch(name: name, [report])).0
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> RawHTTP.Response {
        try RawHTTP.get(port: server.port, path: target, headers: headers)
    }

    func state() throws -> BoardSnapshot {
        try JSONDecoder().decode(BoardSnapshot.self, from: Data(try get("/board/state.json").body))
    }
}
