import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Room board: a server killed and started again")
struct BoardRestartTests {
    /// A workshop with two made-up exercises: the board's columns come from Exercises/*/.meta.
    static func workshop(in folder: URL) throws {
        for (id, folderName) in [("A1", "A1-first"), ("A2", "A2-second")] {
            let meta = folder.appendingPathComponent("Exercises/\(folderName)/.meta")
            try FileManager.default.createDirectory(at: meta, withIntermediateDirectories: true)
            let json =
                "{\"id\": \"\(id)\", \"lesson\": \"01\", \"title\": {\"en\": \"\(id) in English\", \"ja\": \"\(id) を日本語で\"}}"
            try Data(json.utf8).write(to: meta.appendingPathComponent("exercise.json"))
        }
    }

    /// The built `fixture-server` with `arguments`, left running.
    static func start(_ arguments: [String], environment: [String: String]) throws -> Subprocess.Child {
        let binary = try #require(
            Subprocess.builtProduct("fixture-server"),
            "fixture-server is not built next to the tests; run `swift build`")
        return try Subprocess.Child(
            binary, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    @Test("SIGKILL loses no accepted report, and the room keeps its code")
    func killedAndRestarted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("board-kill-\(UUID().uuidString)")
        try Self.workshop(in: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("room.sqlite").path
        let arguments = ["--board", "--board-db", database, "--port", "0"]
        let environment = ["WORKSHOP_ROOT": folder.path]

        let first = try Self.start(arguments + ["--room-code", "kxp-q7r"], environment: environment)
        defer { first.signalGroup(SIGKILL) }
        let code = try await first.line(startingWith: "room code: ")
        #expect(code == "KXPQ7R")
        let board = try await first.line(startingWith: "board: http://127.0.0.1:")
        let port = try #require(UInt16(board.prefix { $0.isNumber }))

        var sent = 0
        for i in 0..<25 {
            let report = BoardReport(
                id: UUID().uuidString, exercise: i % 3 == 0 ? "A2" : "A1", passed: i % 4 == 0,
                failingCheck: i % 4 == 0 ? nil : "check \(i % 2)", secondsSpent: Double(i * 10))
            let body = try JSONEncoder().encode(BoardBatch(code: code, name: "learner\(i % 5)", reports: [report]))
            let connection = try HTTPConnection(host: "127.0.0.1", port: port, timeout: 10)
            var head = "POST /board/report HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n"
            head += String(decoding: body, as: UTF8.self)
            let answer = try connection.exchange(head)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            if answer.status == 200 { sent += 1 }
        }
        let before = try JSONDecoder().decode(
            BoardSnapshot.self, from: Data(try RawHTTP.get(port: port, path: "/board/state.json").body))
        #expect(await first.stop(SIGKILL, timeout: 10) != nil, "fixture-server did not end after SIGKILL")

        let second = try Self.start(arguments, environment: environment)
        defer { second.signalGroup(SIGKILL) }
        #expect(try await second.line(startingWith: "room code: ") == "KXPQ7R", "the code was not kept")
        #expect((second.output.stdoutText + second.output.stderrText).contains("(5 learners kept from before)"))
        let again = try await second.line(startingWith: "board: http://127.0.0.1:")
        let newPort = try #require(UInt16(again.prefix { $0.isNumber }))
        let after = try JSONDecoder().decode(
            BoardSnapshot.self, from: Data(try RawHTTP.get(port: newPort, path: "/board/state.json").body))
        #expect(after.learners.flatMap(\.cells).reduce(0) { $0 + $1.checks } == sent)
        #expect(after.version == sent)
        #expect(after.learners.map(\.name) == before.learners.map(\.name))
        #expect(
            after.learners.map { $0.cells.map(\.failingCheck) } == before.learners.map { $0.cells.map(\.failingCheck) })
        #expect(after.columns.map(\.exercise.titleJapanese) == ["A1 を日本語で", "A2 を日本語で"])
    }

    @Test("bad board flags exit 64 and name the flag")
    func badFlags() throws {
        let binary = try #require(Subprocess.builtProduct("fixture-server"))
        let cases: [([String], String)] = [
            (["--board", "--room-code", "O0O0"], "--room-code"), (["--room-code", "ABCDEF"], "--room-code"),
            (["--board-db", "x.sqlite"], "--board-db"), (["--board", "--self-check"], "--self-check"),
            (["--board", "--board-db", "/nonexistent-folder/board.sqlite", "--port", "0"], "--board-db"),
        ]
        for (arguments, flag) in cases {
            let outcome = try Subprocess.run(binary, arguments, timeout: 60)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }
}
