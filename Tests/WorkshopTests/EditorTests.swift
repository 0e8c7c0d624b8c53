import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// The editor sees the exercise files: sourcekit-lsp (in the toolchain; it drives VS Code's
/// Swift extension, Neovim's and Emacs's LSP clients) type-checks a file under Exercises/
/// against its lesson's library and jumps into it, thanks to Exercises/compile_flags.txt,
/// while `swift build` never compiles the file. Spoken to here over JSON-RPC on stdio, as an
/// editor does. The file's text is sent from the copies in Tests/ExerciseFiles (the learner's
/// file on disk is never read), under the learner's file's name, which decides the flags.
///
/// What EditorSlowTests and EditorKitTests share; no tests of its own.
class EditorCase: XCTestCase {
    static let root = ExerciseRoot.builtFrom

    /// sourcekit-lsp beside the `swift` on PATH, or nil.
    static var server: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/sourcekit-lsp"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What compile_flags.txt points at: the modules of the package's debug build.
    static var modulesBuilt: Bool {
        FileManager.default.fileExists(
            atPath: root.appendingPathComponent(".build/debug/Modules/Lesson03Kit.swiftmodule").path)
    }

    static func client(workspace: URL) throws -> LSPClient {
        let server = try XCTUnwrap(Self.server, "sourcekit-lsp is not on PATH (it ships in the Swift toolchain)")
        try XCTSkipUnless(
            Self.modulesBuilt,
            "Exercises/compile_flags.txt points at .build/debug/Modules, which this build does not have "
                + "(built with another --scratch-path or -c release?)")
        return try LSPClient(server: server, workspace: workspace)
    }

    static func exercise(_ exercise: Exercise) -> (uri: String, shipped: String) {
        let file = Self.root.appendingPathComponent(exercise.paths[0])
        let shipped = try? ShippedFiles.contents(exercise, exercise.files[0], root: Self.root)
        return (file.absoluteString, shipped.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class EditorSlowTests: EditorCase {
    /// Every exercise file as shipped, with Exercises/ opened on its own: no error anywhere.
    func testEveryShippedExerciseFileTypeChecksInTheEditor() throws {
        let lsp = try Self.client(workspace: Self.root.appendingPathComponent("Exercises"))
        defer { lsp.close() }
        for exercise in ExerciseCatalog.exercises {
            let (uri, shipped) = Self.exercise(exercise)
            try lsp.open(uri, text: shipped)
            XCTAssertEqual(try lsp.errors(uri), [], exercise.id)
            // Proof that it was type-checked, not skipped: a name nothing declares is an error.
            try lsp.change(uri, text: shipped + "\nlet workshopProbe: Int = noSuchName\n", version: 2)
            XCTAssertFalse(try lsp.errors(uri).isEmpty, "\(exercise.id): the planted error is reported")
        }
    }
}

/// A minimal LSP client: JSON-RPC messages with Content-Length headers over the server's
/// stdin and stdout. Every wait for an answer has a timeout.
// @unchecked: `inbox` and `ended` are guarded by `condition`, writes to the server by `writing`;
// `nextID` is touched only by the test's thread.
final class LSPClient: @unchecked Sendable {
    struct Diagnostic: Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "\(line + 1): \(message)" }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let condition = NSCondition()
    private let writing = NSLock()  // the test's thread and the reader (answering the server) both write
    private var inbox: [[String: Any]] = []  // guarded by `condition`
    private var ended = false  // guarded by `condition`
    private var nextID = 0
    static let timeout = 120.0

    init(server: String, workspace: URL) throws {
        process.executableURL = URL(fileURLWithPath: server)
        process.currentDirectoryURL = workspace
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.detachNewThread { [self] in read() }
        _ = try request(
            "initialize",
            [
                "processId": Int(getpid()), "rootUri": workspace.absoluteString,
                "workspaceFolders": [["uri": workspace.absoluteString, "name": workspace.lastPathComponent]],
                "capabilities": ["textDocument": ["publishDiagnostics": [:] as [String: Any]]],
                // No background build of the whole package into .build/index-build: not what is tested.
                "initializationOptions": ["backgroundIndexing": false],
            ])
        try notify("initialized", [:])
    }

    func open(_ uri: String, text: String) throws {
        try notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri, "languageId": "swift", "version": 1, "text": text]])
    }

    func change(_ uri: String, text: String, version: Int) throws {
        try notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
    }

    /// The document's errors (severity 1), pulled as an editor pulls them.
    func errors(_ uri: String) throws -> [Diagnostic] {
        let result = try request("textDocument/diagnostic", ["textDocument": ["uri": uri]])
        let items = (result as? [String: Any])?["items"] as? [[String: Any]] ?? []
        return items.filter { ($0["severity"] as? Int) == 1 }.map { item in
            let range = item["range"] as? [String: Any]
            let start = range?["start"] as? [String: Any]
            return Diagnostic(line: start?["line"] as? Int ?? -1, message: item["message"] as? String ?? "")
        }
    }

    /// The files `textDocument/definition` answers with, as paths.
    func definition(_ uri: String, line: Int, character: Int) throws -> [String] {
        let result = try request(
            "textDocument/definition",
            ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
        let locations = (result as? [[String: Any]]) ?? ((result as? [String: Any]).map { [$0] } ?? [])
        return locations.compactMap { ($0["uri"] as? String).flatMap(URL.init(string:))?.path }
    }

    func close() {
        _ = try? request("shutdown", nil)
        try? notify("exit", nil)
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        while !ended && condition.wait(until: deadline) {}
        condition.unlock()
        if process.isRunning { process.terminate() }
    }

    // MARK: - JSON-RPC

    private func send(_ message: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: message)
        writing.withLock {
            input.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        }
    }

    private func notify(_ method: String, _ params: Any?) throws {
        try send(["jsonrpc": "2.0", "method": method, "params": params ?? NSNull()])
    }

    /// Sends a request and waits for its answer; the server's own requests are answered with null.
    private func request(_ method: String, _ params: Any?) throws -> Any? {
        nextID += 1
        let id = nextID
        try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params ?? NSNull()])
        let deadline = Date(timeIntervalSinceNow: Self.timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = inbox.firstIndex(where: { ($0["id"] as? Int) == id && $0["method"] == nil }) {
                let answer = inbox.remove(at: index)
                if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
                return answer["result"]
            }
            if ended { throw Failure(description: "sourcekit-lsp ended before answering \(method)") }
            if !condition.wait(until: deadline) {
                throw Failure(description: "no answer to \(method) within \(Int(Self.timeout)) s")
            }
        }
    }

    /// Reads messages until the server's stdout ends.
    private func read() {
        let handle = output.fileHandleForReading
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer += chunk
            while let end = buffer.range(of: separator) {
                let header = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                let length =
                    header.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                guard buffer.count - (end.upperBound - buffer.startIndex) >= length else { break }
                let body = buffer[end.upperBound..<end.upperBound + length]
                buffer = Data(buffer[(end.upperBound + length)...])
                guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
                if let id = message["id"], message["method"] != nil {
                    try? send(["jsonrpc": "2.0", "id": id, "result": NSNull()])  // a request of the server's
                    continue
                }
                condition.lock()
                inbox.append(message)
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
