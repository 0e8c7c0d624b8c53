import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives the built `fixture-server` binary, the way an instructor would.
@Suite("fixture-server command")
struct FixtureServerCLITests {
    static func binary() throws -> String {
        try #require(
            Subprocess.builtProduct("fixture-server"),
            "fixture-server is not built next to the tests; run `swift build`")
    }

    /// The environment a run gets: the tester's, with the locale taken out (the program speaks
    /// English) unless `locale` gives it, e.g. `["LANG": "ja_JP.UTF-8"]`.
    static func environment(locale: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[name] = locale[name] }
        return environment
    }

    static func run(_ arguments: [String], timeout: Double = 60, locale: [String: String] = [:]) throws
        -> Subprocess.Outcome
    {
        let outcome = try Subprocess.run(
            try binary(), arguments, environment: environment(locale: locale), timeout: timeout)
        #expect(!outcome.timedOut, "fixture-server \(arguments) did not finish within \(timeout) s")
        return outcome
    }

    @Test("every bad value exits 64 and names its flag")
    func badValues() throws {
        let cases: [([String], String)] = [
            (["--port", "70000"], "--port"), (["--port", "-1"], "--port"), (["--port", "http"], "--port"),
            (["--host", "example.com"], "--host"), (["--host", "1.2.3"], "--host"), (["--host", "::1"], "--host"),
            (["--fault", "boom"], "--fault"), (["--fault", "99"], "--fault"),
            (["--fault", "500", "--fault-rate", "1.5"], "--fault-rate"),
            (["--fault", "500", "--fault-rate", "-0.1"], "--fault-rate"),
            (["--fault-rate", "0.5"], "--fault-rate"),
            (["--max-connections", "0"], "--max-connections"), (["--read-timeout", "0"], "--read-timeout"),
            (["--latency", "99"], "--latency"), (["--bandwidth", "-1"], "--bandwidth"),
            (["--max-age", "-1"], "--max-age"),
            (["--clients", "5"], "--clients"), (["--self-check", "--clients", "0"], "--clients"),
            (["--self-check", "--fault", "500"], "--fault"), (["--no-such-flag"], "--no-such-flag"),
        ]
        for (arguments, flag) in cases {
            let outcome = try Self.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.signaled, "\(arguments)")
        }
    }

    @Test("a port in use exits 64 with the port and what to do")
    func portInUse() throws {
        let server = FixtureServer()
        try server.start()
        defer { server.stop() }
        let outcome = try Self.run(["--port", "\(server.port)"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--port \(server.port)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("already in use"))
        #expect(outcome.stderr.contains("--port 0"))
    }

    @Test("an address that is not this machine's exits 64 and names --host")
    func foreignHost() throws {
        let foreign = try #require(foreignAddress())
        let outcome = try Self.run(["--host", foreign, "--port", "0"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--host \(foreign)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("not an address of this machine"))
    }

    @Test("--help shows every flag with its default and range")
    func help() throws {
        let outcome = try Self.run(["--help"])
        #expect(outcome.status == 0)
        // The help is wrapped at 80 columns: compare with the line breaks and indents folded away.
        let help = outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for flag in [
            "--host", "--port", "--latency", "--bandwidth", "--gzip", "--max-age", "--fault ", "--fault-rate",
            "--max-connections", "--read-timeout", "--self-check", "--clients", "--requests", "--silent",
        ] {
            #expect(help.contains(flag), "\(flag)")
        }
        for text in [
            "(default: 127.0.0.1)", "(default: 8080)", "0-65535; 0 picks a free one", "0-1; 1 = every one",
            "(default: 256)", "1-10000",
            "(default: 10.0)", "0.1-3600", "1-1000; default 64", "corrupt-gzip",
        ] {
            #expect(help.contains(text), "\(text)")
        }
    }

    @Test("--self-check drives a load against itself and reports requests/s and p99")
    func selfCheck() throws {
        let outcome = try Self.run(["--self-check", "--clients", "4", "--requests", "21", "--silent", "2"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("keep-alive: 84 requests, 0 errors, 4 connections"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("new connection per request: 84 requests, 0 errors, 84 connections"))
        #expect(outcome.stdout.contains("requests/s"))
        #expect(outcome.stdout.contains("p99"))
        #expect(outcome.stdout.contains("2 of 2 silent connections still open"))
        #expect(outcome.stdout.contains("ok: zero errors, zero lost requests"))
    }

    /// The built `fixture-server`, started with `arguments` and left running (see `environment`).
    static func start(_ arguments: [String], locale: [String: String] = [:]) throws -> Subprocess.Child {
        try Subprocess.Child(try binary(), arguments, environment: environment(locale: locale))
    }

    @Test(
        "--host 0.0.0.0 --fault 500 --fault-rate 0.5: a one-line warning, the room's URL, faults on half, /health fine")
    func roomServer() async throws {
        let server = try Self.start(["--host", "0.0.0.0", "--port", "0", "--fault", "500", "--fault-rate", "0.5"])
        defer { server.signalGroup(SIGKILL) }
        let banner = try await server.line(containing: "try: curl", timeout: 30)
        let digits = banner.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? ""
        let port = try #require(UInt16(digits), "\(banner)")
        let statuses = try (1...4).map { _ in try RawHTTP.get(port: port, path: "/timeline?count=1").status }
        #expect(statuses == [200, 500, 200, 500])
        #expect(try RawHTTP.get(port: port, path: "/health").status == 200)
        _ = try await server.line(containing: "GET /health -> 200", timeout: 30)
        let end = await server.stop(SIGINT, timeout: 30)
        #expect(end == Subprocess.Child.End(status: 0, signaled: false), "Ctrl-C: \(server.stopFailure)")
        let (stdout, stderr) = (server.output.stdoutText, server.output.stderrText)
        let warnings = stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(stderr)")
        #expect(warnings.first?.contains("anyone") == true)
        #expect(stdout.contains("fixture server on http://0.0.0.0:\(port)"))
        #expect(stdout.contains("fault 500 on 0.5 of requests"))
        if let lan = HostAddress.interfaceAddresses().first {
            #expect(stdout.contains("learners: swift run lesson03 --server http://\(lan):\(port)"))
        }
        #expect(stdout.contains("GET /timeline -> 500"))
    }
}
