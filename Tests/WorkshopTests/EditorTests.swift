import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The editor sees the exercise files: sourcekit-lsp (in the toolchain; it drives VS Code's
/// Swift extension, Neovim's and Emacs's LSP clients) type-checks a file under Exercises/
/// against its lesson's library and jumps into it, thanks to Exercises/compile_flags.txt,
/// while `swift build` never compiles the file. Spoken to here over JSON-RPC on stdio, as an
/// editor does. The file's text is sent from the copies in Tests/ExerciseFiles (the learner's
/// file on disk is never read), under the learner's file's name, which decides the flags.
///
/// What EditorSlowTests and EditorKitTests share.
enum EditorCase {
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

    static func client(workspace: URL) async throws -> LSPClient {
        let server = try #require(Self.server, "sourcekit-lsp is not on PATH (it ships in the Swift toolchain)")
        try #require(
            Self.modulesBuilt,
            """
            Exercises/compile_flags.txt points at .build/debug/Modules, which this build does not have \
            (built with another --scratch-path or -c release?)
            """)
        return try await LSPClient.start(server: server, workspace: workspace)
    }

    static func exercise(_ exercise: Exercise) -> (uri: String, shipped: String) {
        let file = Self.root.appendingPathComponent(exercise.paths[0])
        let shipped = try? ShippedFiles.contents(exercise, exercise.files[0], root: Self.root)
        return (file.absoluteString, shipped.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct EditorSlowTests {
    /// Every exercise file as shipped, with Exercises/ opened on its own: no error anywhere.
    @Test func everyShippedExerciseFileTypeChecksInTheEditor() async throws {
        let lsp = try await EditorCase.client(workspace: EditorCase.root.appendingPathComponent("Exercises"))
        for exercise in ExerciseCatalog.exercises {
            let (uri, shipped) = EditorCase.exercise(exercise)
            try lsp.open(uri, text: shipped)
            #expect(try await lsp.errors(uri) == [], "\(exercise.id)")
            // Proof that it was type-checked, not skipped: a name nothing declares is an error.
            try lsp.change(uri, text: shipped + "\nlet workshopProbe: Int = noSuchName\n", version: 2)
            #expect(try await !lsp.errors(uri).isEmpty, "\(exercise.id): the planted error is reported")
        }
        await lsp.close()
    }
}

/// A minimal LSP client: JSON-RPC messages with Content-Length headers over the server's
/// stdin and stdout. Every wait for an answer has a timeout. Used by one test at a time.
final class LSPClient {
    struct Diagnostic: Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "\(line + 1): \(message)" }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let server: Subprocess.Child
    /// The server's messages read so far and not yet taken, and how many bytes of its output they used.
    private var inbox: [[String: Any]] = []
    private var parsed = 0
    private var nextID = 0
    static let timeout = 120.0

    /// A server left running by a test that stopped early is stopped with its client.
    deinit {
        server.closeInput()
        server.signal(SIGKILL)
    }

    private init(server path: String, workspace: URL) throws {
        server = try Subprocess.Child(path, [], currentDirectory: workspace.path, input: true)
    }

    /// Starts the server in `workspace` and says hello.
    static func start(server path: String, workspace: URL) async throws -> LSPClient {
        let client = try LSPClient(server: path, workspace: workspace)
        _ = try await client.request(
            "initialize",
            [
                "processId": Int(getpid()), "rootUri": workspace.absoluteString,
                "workspaceFolders": [["uri": workspace.absoluteString, "name": workspace.lastPathComponent]],
                "capabilities": ["textDocument": ["publishDiagnostics": [:] as [String: Any]]],
                // No background build of the whole package into .build/index-build: not what is tested.
                "initializationOptions": ["backgroundIndexing": false],
            ])
        try client.notify("initialized", [:])
        return client
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
    func errors(_ uri: String) async throws -> [Diagnostic] {
        let result = try await request("textDocument/diagnostic", ["textDocument": ["uri": uri]])
        let items = (result as? [String: Any])?["items"] as? [[String: Any]] ?? []
        return items.filter { ($0["severity"] as? Int) == 1 }.map { item in
            let range = item["range"] as? [String: Any]
            let start = range?["start"] as? [String: Any]
            return Diagnostic(line: start?["line"] as? Int ?? -1, message: item["message"] as? String ?? "")
        }
    }

    /// The files `textDocument/definition` answers with, as paths.
    func definition(_ uri: String, line: Int, character: Int) async throws -> [String] {
        let result = try await request(
            "textDocument/definition",
            ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
        let locations = (result as? [[String: Any]]) ?? ((result as? [String: Any]).map { [$0] } ?? [])
        return locations.compactMap { ($0["uri"] as? String).flatMap(URL.init(string:))?.path }
    }

    func close() async {
        _ = try? await request("shutdown", nil)
        try? notify("exit", nil)
        server.closeInput()
        if await server.wait(timeout: 10) == nil { server.signal(SIGKILL) }
    }

    // MARK: - JSON-RPC

    private func send(_ message: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: message)
        try server.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    private func notify(_ method: String, _ params: Any?) throws {
        try send(["jsonrpc": "2.0", "method": method, "params": params ?? NSNull()])
    }

    /// Sends a request and waits for its answer; the server's own requests are answered with null.
    private func request(_ method: String, _ params: Any?) async throws -> Any? {
        nextID += 1
        let id = nextID
        try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params ?? NSNull()])
        let deadline = Date(timeIntervalSinceNow: Self.timeout)
        while true {
            let output = server.output
            try take(output.stdout)
            if let index = inbox.firstIndex(where: { ($0["id"] as? Int) == id && $0["method"] == nil }) {
                let answer = inbox.remove(at: index)
                if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
                return answer["result"]
            }
            if output.ended { throw Failure(description: "sourcekit-lsp ended before answering \(method)") }
            let seen = output.stdout.count
            let more = await server.waitForOutput(timeout: deadline.timeIntervalSinceNow) { $0.stdout.count > seen }
            if !more && deadline.timeIntervalSinceNow <= 0 {
                throw Failure(description: "no answer to \(method) within \(Int(Self.timeout)) s")
            }
        }
    }

    /// Reads the complete messages in `stdout` after those read before into the inbox.
    private func take(_ stdout: Data) throws {
        let separator = Data("\r\n\r\n".utf8)
        while let end = stdout.range(of: separator, in: (stdout.startIndex + parsed)..<stdout.endIndex) {
            let header = String(decoding: stdout[(stdout.startIndex + parsed)..<end.lowerBound], as: UTF8.self)
            let length =
                header.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            guard stdout.endIndex - end.upperBound >= length else { return }
            let body = stdout[end.upperBound..<end.upperBound + length]
            parsed = end.upperBound + length - stdout.startIndex
            guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
            if let id = message["id"], message["method"] != nil {
                try send(["jsonrpc": "2.0", "id": id, "result": NSNull()])  // a request of the server's
                continue
            }
            inbox.append(message)
        }
    }
}
