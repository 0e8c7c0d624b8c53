import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `fixture-server` running in the background, its output collected as it comes.
final class ServerProcess: Sendable {
    let process: Process
    /// Everything it printed so far; a `Watched` so a test can wait for a line.
    let output = Watched("")
    let ended = DispatchSemaphore(value: 0)

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let binary = try #require(
            Subprocess.builtProduct("fixture-server"),
            "fixture-server is not built next to the tests; run `swift build`")
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        let ended = ended
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
    }

    /// The first printed line that starts with `prefix` (without it), waiting at most `timeout`.
    func line(startingWith prefix: String, timeout: Double = 60) -> String? {
        let found = output.wait(timeout: timeout) { text in
            text.split(separator: "\n").contains { $0.hasPrefix(prefix) }
        }
        guard found else { return nil }
        return output.withLock { text in
            text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }
    }

    /// Sends `signal` and waits (at most 10 s) for the process to end. Whether it ended.
    @discardableResult
    func stop(_ signal: Int32) -> Bool {
        guard process.isRunning else { return true }  // ended (and waited for) already
        kill(process.processIdentifier, signal)
        return ended.wait(timeout: .now() + 10) == .success
    }
}

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

    @Test("SIGKILL loses no accepted report, and the room keeps its code")
    func killedAndRestarted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("board-kill-\(UUID().uuidString)")
        try Self.workshop(in: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("room.sqlite").path
        let arguments = ["--board", "--board-db", database, "--port", "0"]
        let environment = ["WORKSHOP_ROOT": folder.path]

        let first = try ServerProcess(arguments + ["--room-code", "kxp-q7r"], environment: environment)
        defer { first.stop(SIGKILL) }
        let code = try #require(
            first.line(startingWith: "room code: "), "no room code: \(first.output.withLock { $0 })")
        #expect(code == "KXPQ7R")
        let board = try #require(first.line(startingWith: "board: http://127.0.0.1:"))
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
        #expect(first.stop(SIGKILL), "fixture-server did not end after SIGKILL")

        let second = try ServerProcess(arguments, environment: environment)
        defer { second.stop(SIGINT) }
        #expect(second.line(startingWith: "room code: ") == "KXPQ7R", "the code was not kept")
        #expect(second.output.withLock { $0 }.contains("(5 learners kept from before)"))
        let again = try #require(second.line(startingWith: "board: http://127.0.0.1:"))
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
