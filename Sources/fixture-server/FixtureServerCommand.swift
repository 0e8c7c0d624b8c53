import ArgumentParser
import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This program's texts (`Sources/fixture-server/Resources/ja.lproj/Localizable.strings`).
private let text = LocalizedTexts { .module }

@main
struct FixtureServerCommand: ParsableCommand {
    /// A computed `configuration`, so `--help` speaks the language `Language.current` decided
    /// from `--lang` and the locale before the parser ran.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "fixture-server",
            abstract: text(
                "Serve the workshop's fixture API (on 127.0.0.1 unless --host says otherwise) and log every request."),
            // One table entry a line (the English lines are the keys); blank lines between paragraphs.
            discussion: discussion.map { $0.map { text($0) }.joined(separator: "\n") }.joined(separator: "\n\n"))
    }

    /// `--help`'s discussion: paragraphs of lines, each line one entry of the table.
    static let discussion: [[String]] = [
        [
            "Routes: /timeline?count=N (JSON) and /icons/NAME.png (lesson 03); /api/login?user=&password=, "
                + "/api/user and /api/items/N (lesson 01); /feed.xml?items=N (lesson 02); /xml/friends, "
                + "/xml/statuses and /xml/catalog with ?count=N (lesson 04); /orders (lesson 05); /health. "
                + "Any request may add query "
                + "items latency=SECONDS, bandwidth=BYTES_PER_SECOND, gzip=0|1, and "
                + "fault=500|drop|stall|corrupt-gzip|truncated-gzip|malformed|redirect-loop|none (none: no fault, whatever --fault says).",
            "Lessons use it with --server http://127.0.0.1:PORT. Stop it with Ctrl-C.",
            "Try: curl -s 'http://127.0.0.1:8080/timeline?count=2'",
        ],
        [
            "For a room: --host 0.0.0.0 listens on every interface, and learners run e.g. "
                + "`swift run lesson03 --server http://THIS-MACHINE:8080`. --fault breaks the network for "
                + "all of them (/health is never faulted, so `curl http://THIS-MACHINE:8080/health` checks "
                + "the server is up). --fault-rate hits a share of requests, deterministically: of every N "
                + "requests the fault could hit, floor(N x rate) do, evenly spread (0.3: the 4th, 7th, 10th, ...)."
        ],
        [
            "Limits: at most --max-connections served at once (one more gets 503 and Retry-After: 1 "
                + "at once); a client has --read-timeout seconds to send a whole request (a silent or "
                + "dribbling client is closed, with 408 if it had begun; so is a kept-alive connection left "
                + "idle); the request line and headers may be 16 KiB (more: 431), a body 1 MiB (more: 413); "
                + "a malformed request gets 400. None of these stops the server.",
            "Against a crowded or hostile network: one address may hold --max-connections-per-address "
                + "connections (more are closed at once); a new connection that sends nothing for 2 s is "
                + "closed; 32 connections beyond --max-connections are kept for the board's reports; the "
                + "board answers at most 4 waiting pages per address, limits reads and reports per address, "
                + "and wrong room codes for the whole room (429).",
        ],
        [
            "--board also serves the room's board at /board: a row per learner, a column per exercise, "
                + "who is stuck longest at the top, live. It prints a room code; learners run "
                + "`swift run workshop join http://THIS-MACHINE:8080 --name NAME --code CODE`, and every "
                + "`workshop check` then reports its outcome (never their code). The board is kept in "
                + "--board-db (default fixture-board.sqlite in the current folder): a restarted server keeps "
                + "the room and its code."
        ],
        [
            "--docs also serves the lessons as DocC tutorials at /docs/ (/docs/en/ and /docs/ja/), "
                + "from the folder `swift run workshop docs` builds (--docs-dir, default .build/docs in the package)."
        ],
        [
            "--self-check starts a server of its own on a free port with these settings and drives "
                + "--clients clients x --requests requests against it, on kept-alive connections and then "
                + "a new connection per request, with --silent connections holding on throughout; it prints "
                + "requests/s and p50/p99 latency and exits 1 if any request was lost or failed."
        ],
    ]

    @Option(
        help: ArgumentHelp(
            text(
                "IPv4 address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 (every interface: the room) or one interface's address."
            ), valueName: "address"))
    var host = "127.0.0.1"

    /// The numbers the flags take (`--latency` and `--bandwidth` as in every lesson: `NetworkFlags`).
    enum Ranges {
        static let port = FlagRange("--port", 0...65_535)
        static let maxAge = FlagRange("--max-age", 0..., seconds: true)
        static let faultRate = FlagRange("--fault-rate", 0...1.0)
        static let maxConnections = FlagRange("--max-connections", 1...10_000)
        static let readTimeout = FlagRange("--read-timeout", 0.1...3600.0, seconds: true)
        static let maxConnectionsPerAddress = FlagRange("--max-connections-per-address", 1...10_000)
        static let clients = FlagRange("--clients", 1...1000)
        static let requests = FlagRange("--requests", 1...100_000)
        static let silent = FlagRange("--silent", 0...1000)
    }

    @Option(Ranges.port, help: text("TCP port"), note: text("0 picks a free one"), valueName: "port")
    var port = 8080

    @Option(NetworkFlags.latency, help: text("Seconds to wait before each response"), valueName: "seconds")
    var latency: Double = 0

    @Option(
        NetworkFlags.bandwidth, help: text("Bytes per second for responses"), note: text("0 = no limit"),
        valueName: "bytes-per-second")
    var bandwidth: Int = 0

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(text("Compress with gzip when the client accepts it.")))
    var gzip = true

    @Option(
        Ranges.maxAge, help: text("Send Cache-Control: max-age=N with every 200 response"),
        note: text("default: none"), valueName: "seconds")
    var maxAge: Int?

    @Option(
        help: ArgumentHelp(
            text(
                format:
                    "Break responses on purpose: %@ (default: none). /health is never faulted; a request's own fault= query item wins.",
                text(Fault.kindsHelp)), valueName: "kind"))
    var fault: String?

    @Option(
        Ranges.faultRate, help: text("Share of requests --fault hits, chosen deterministically"),
        note: text("1 = every one"), valueName: "rate")
    var faultRate: Double = 1

    @Option(
        Ranges.maxConnections, help: text("Connections served at once; one more gets 503 at once"),
        valueName: "count")
    var maxConnections = ServerKnobs.defaultMaxConnections

    @Option(
        Ranges.readTimeout,
        help: text(
            "Seconds a client has to send a whole request; silent, dribbling and idle clients are closed after it"),
        valueName: "seconds")
    var readTimeout = ServerKnobs.defaultReadTimeoutSeconds

    @Option(
        Ranges.maxConnectionsPerAddress,
        help: text("Connections one client address may hold at once; more are closed at once"),
        note: text("raise it for a room behind one address"), valueName: "count")
    var maxConnectionsPerAddress = ServerKnobs.defaultMaxConnectionsPerAddress

    @Flag(
        help: ArgumentHelp(
            text("Serve the room's board at /board (learners report with `workshop join`); prints the room code.")))
    var board = false

    @Option(
        help: ArgumentHelp(
            text("With --board: the SQLite file that keeps the board (default: fixture-board.sqlite here)."),
            valueName: "file"))
    var boardDb: String?

    @Option(
        help: ArgumentHelp(
            text(
                "With --board: the room code, 6-12 letters and digits without 0, 1, I, L, O (default: the one kept in --board-db, or a new one)."
            ), valueName: "code"))
    var roomCode: String?

    @Flag(
        help: ArgumentHelp(
            text("Serve the lessons' DocC tutorials at /docs/ (build them first: `swift run workshop docs`).")))
    var docs = false

    @Option(
        help: ArgumentHelp(
            text("With --docs: the folder `workshop docs` built (default: .build/docs in the package)."),
            valueName: "folder")
    )
    var docsDir: String?

    @Flag(
        help: ArgumentHelp(
            text(
                "Run a load against a server of its own (these settings, a free port), print requests/s and p50/p99, exit."
            )))
    var selfCheck = false

    @Option(
        Ranges.clients, help: text("With --self-check: clients at once"), default: LoadCheck.Plan().clients,
        valueName: "count")
    var clients: Int?

    @Option(
        Ranges.requests, help: text("With --self-check: requests per client"),
        default: LoadCheck.Plan().requestsPerClient, valueName: "count")
    var requests: Int?

    @Option(
        Ranges.silent, help: text("With --self-check: silent connections held open during the load"),
        default: LoadCheck.Plan().silentClients, valueName: "count")
    var silent: Int?

    @OptionGroup var language: LanguageOption

    func validate() throws {
        guard HostAddress(host) != nil else {
            throw ValidationError(
                text(
                    format:
                        "--host must be an IPv4 address such as 127.0.0.1, 0.0.0.0 or this machine's address (got '%@')",
                    host))
        }
        try Ranges.port.check(port)
        try NetworkFlags.latency.check(latency)
        try NetworkFlags.bandwidth.check(bandwidth)
        try Ranges.maxAge.check(maxAge)
        if let fault, Fault(fault) == nil {
            throw ValidationError(text(format: "--fault must be %1$@ (got '%2$@')", text(Fault.kindsHelp), fault))
        }
        try Ranges.faultRate.check(faultRate)
        if faultRate != 1, fault == nil {
            throw ValidationError(text("--fault-rate needs --fault KIND: which fault should it hit requests with?"))
        }
        try Ranges.maxConnections.check(maxConnections)
        try Ranges.readTimeout.check(readTimeout)
        try Ranges.maxConnectionsPerAddress.check(maxConnectionsPerAddress)
        let selfCheckOnly = [("--clients", clients), ("--requests", requests), ("--silent", silent)]
        if !selfCheck, let given = selfCheckOnly.first(where: { $0.1 != nil }) {
            throw ValidationError(text(format: "%@ only applies to --self-check", given.0))
        }
        try Ranges.clients.check(clients)
        try Ranges.requests.check(requests)
        try Ranges.silent.check(silent)
        if !board, let given = [("--board-db", boardDb), ("--room-code", roomCode)].first(where: { $0.1 != nil }) {
            throw ValidationError(text(format: "%@ only applies to --board", given.0))
        }
        if let roomCode, RoomCode.normalized(roomCode) == nil {
            throw ValidationError(
                text(
                    format: "--room-code must be 6 to 12 letters and digits, without 0, 1, I, L and O (got '%@')",
                    roomCode))
        }
        if let boardDb, boardDb.isEmpty { throw ValidationError(text("--board-db needs a file name")) }
        if !docs, docsDir != nil { throw ValidationError(text("--docs-dir only applies to --docs")) }
        if selfCheck, docs {
            throw ValidationError(text("--self-check measures the lesson API: leave out --docs"))
        }
        if selfCheck, board {
            throw ValidationError(text("--self-check measures the lesson API: leave out --board"))
        }
        if selfCheck, fault != nil {
            throw ValidationError(text("--self-check measures a healthy server: leave out --fault"))
        }
    }

    /// The room's limits (`ServerKnobs.room`) with the flags' values.
    var knobs: ServerKnobs {
        var knobs = ServerKnobs.room
        knobs.latencySeconds = latency
        knobs.bandwidthBytesPerSecond = bandwidth
        knobs.gzip = gzip
        knobs.maxAgeSeconds = maxAge
        knobs.fault = fault.flatMap(Fault.init)
        knobs.faultRate = faultRate
        knobs.maxConnections = maxConnections
        knobs.readTimeoutSeconds = readTimeout
        knobs.maxConnectionsPerAddress = maxConnectionsPerAddress
        return knobs
    }

    func run() throws {
        raiseOpenFileLimit(toAtLeast: maxConnections + ServerKnobs.defaultReservedConnections + 256)
        if selfCheck { return try runSelfCheck() }
        let clock = Stopwatch()
        let roomBoard = try openBoard(log: { line in say(String(format: "%9.3f  ", clock.elapsed) + line) })
        let docsSite = try openDocs()
        let server = FixtureServer(
            knobs: knobs, ownRoutes: (roomBoard?.routes ?? []) + (docsSite?.routes ?? []),
            priorityPaths: roomBoard == nil ? [] : RoomBoard.priorityPaths,
            onRequest: { entry in say(String(format: "%9.3f  ", clock.elapsed) + entry.line) },
            onNotice: { line in say(String(format: "%9.3f  ", clock.elapsed) + line) })
        // Ctrl-C stops it from the moment anything is printed (a script waits for the first lines,
        // then may interrupt at once): handled on the main queue, which `dispatchMain` serves below.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interrupt.setEventHandler {
            say(text("stopping"))
            server.stop()
            Foundation.exit(0)
        }
        interrupt.resume()
        guard let address = HostAddress(host) else {
            throw ValidationError(text(format: "--host: '%@' is not an IPv4 address", host))
        }
        do {
            try server.start(host: host, port: UInt16(port))
        } catch let error as FixtureServer.StartError {
            switch error.reason {
            case .portInUse:
                throw ValidationError(
                    text(
                        format:
                            "--port %1$@: the port is already in use on %2$@ (another fixture-server still running?). Stop it with Ctrl-C in its terminal, or pick another port: --port %3$@, or --port 0 for any free one.",
                        "\(port)", host, "\(port == 65_535 ? 8081 : port + 1)"))
            case .badHost, .addressNotAvailable:
                throw ValidationError("--host \(host): \(error)")
            case .permissionDenied:
                throw ValidationError(
                    text(format: "--port %@: ports below 1024 need root. Use a port such as 8080.", "\(port)"))
            case .other:
                throw ValidationError("--host \(host) --port \(port): \(error)")
            }
        }
        let place = "\(address.isAny ? "0.0.0.0" : address.text):\(server.port)"
        let faultText =
            knobs.fault.map {
                faultRate < 1
                    ? text(format: ", fault %1$@ on %2$@ of requests", "\($0)", "\(faultRate)")
                    : text(format: ", fault %@", "\($0)")
            } ?? ""
        say(
            text(
                format:
                    "fixture server on http://%1$@  (latency %2$@ s, bandwidth %3$@, gzip %4$@%5$@; at most %6$@ connections, read timeout %7$@ s)",
                place, "\(latency)", bandwidth == 0 ? text("unlimited") : "\(bandwidth) B/s", text(gzip ? "on" : "off"),
                faultText, "\(maxConnections)", "\(readTimeout)"))
        if !address.isLoopback {
            warn(
                text(
                    format:
                        "warning: listening on %@: anyone who can reach this machine on the network can use this server; run it on a network you trust and stop it (Ctrl-C) after the session.",
                    place))
            let addresses = address.isAny ? HostAddress.interfaceAddresses() : [address.text]
            for lanAddress in addresses {
                say(text(format: "learners: %@", "swift run lesson03 --server http://\(lanAddress):\(server.port)"))
            }
        }
        say(text(format: "try: %@", "curl -s '\(server.baseURL.absoluteString)/timeline?count=2'"))
        if let roomBoard {
            announce(roomBoard, address: address, port: server.port, baseURL: server.baseURL)
        }
        if docsSite != nil { announceDocs(address: address, port: server.port, baseURL: server.baseURL) }
        // Serve until Ctrl-C: the main thread only waits; the server has its own threads.
        dispatchMain()
    }

    /// The room's board when `--board` asks for one: its database opened and replayed.
    func openBoard(log: @escaping @Sendable (String) -> Void) throws -> RoomBoard? {
        guard board else { return nil }
        let path = boardDb ?? "fixture-board.sqlite"
        let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"].map { URL(fileURLWithPath: $0) } ?? packageRoot
        do {
            // The room's --lang is the board page's language (a browser may still ask ?lang=).
            return try RoomBoard(
                databasePath: path, exercises: BoardExercise.load(root: root), code: roomCode,
                language: Language.asked(in: CommandLine.arguments), onEvent: log)
        } catch {
            throw ValidationError(
                text(format: "--board-db %1$@: the board cannot be kept there: %2$@", path, "\(error)"))
        }
    }

    /// The tutorials' folder when `--docs` asks for it; refused when `workshop docs` has not built it.
    func openDocs() throws -> DocsSite? {
        guard docs else { return nil }
        let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"].map { URL(fileURLWithPath: $0) } ?? packageRoot
        let folder = docsDir.map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent(".build/docs")
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path) else {
            throw ValidationError(
                text(
                    format: "--docs: %1$@ has no tutorials: build them first with `%2$@`", folder.path,
                    "swift run workshop docs" + (docsDir == nil ? "" : " --output \(folder.path)")))
        }
        return DocsSite(folder: folder)
    }

    /// Where the tutorials are, for this machine and for the room.
    func announceDocs(address: HostAddress, port: UInt16, baseURL: URL) {
        say(text(format: "tutorials: %@/docs/  (English /docs/en/, Japanese /docs/ja/)", baseURL.absoluteString))
        if !address.isLoopback {
            let hosts = address.isAny ? HostAddress.interfaceAddresses() : [address.text]
            for host in hosts { say(text(format: "room: %@", "http://\(host):\(port)/docs/")) }
        }
    }

    /// Where the board is, its code, and the line each learner types.
    func announce(_ roomBoard: RoomBoard, address: HostAddress, port: UInt16, baseURL: URL) {
        let snapshot = roomBoard.snapshot()
        let kept =
            snapshot.learners.isEmpty
            ? "" : text(format: " (%d learners kept from before)", snapshot.learners.count)
        say(text(format: "board: %1$@/board  (?lang=ja for Japanese)%2$@", baseURL.absoluteString, kept))
        say(text(format: "room code: %@", roomBoard.code))
        let hosts =
            address.isLoopback ? [address.text] : address.isAny ? HostAddress.interfaceAddresses() : [address.text]
        for host in hosts {
            say(
                text(
                    format: "learners: %@",
                    "swift run workshop join http://\(host):\(port) --name YOUR-NAME --code \(roomBoard.code)"))
        }
        // The empty board shows the same line, with the first address printed.
        if let first = hosts.first { roomBoard.setLearnerURL("http://\(first):\(port)") }
        if address.isLoopback {
            say(text("(only this machine can reach it: add --host 0.0.0.0 for the room)"))
        }
    }

    func runSelfCheck() throws {
        // Its clients all come from this machine, and its silent ones hold on throughout: the
        // limits per address and on a new connection's first byte would refuse them.
        var knobs = knobs
        knobs.maxConnectionsPerAddress = nil
        knobs.firstByteTimeoutSeconds = nil
        let defaults = LoadCheck.Plan()
        let plan = LoadCheck.Plan(
            clients: clients ?? defaults.clients, requestsPerClient: requests ?? defaults.requestsPerClient,
            silentClients: silent ?? defaults.silentClients)
        say(
            text(
                format:
                    "self-check: %1$d clients x %2$d requests, twice, %3$d silent connections, on a server of its own (latency %4$@ s, at most %5$d connections) ...",
                plan.clients, plan.requestsPerClient, plan.silentClients, "\(latency)", maxConnections))
        let report: LoadCheck.Report
        do { report = try LoadCheck.run(plan, knobs: knobs) } catch {
            warn(text(format: "fixture-server: the self-check could not start its server: %@", "\(error)"))
            throw ExitCode.failure
        }
        for line in report.lines.dropFirst() { say(line) }
        if !report.ok { throw ExitCode.failure }
    }
}

/// The package this program was built from: its Exercises/ are the board's columns.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Each connection is a socket; a room needs more than some shells allow (`ulimit -n`).
/// Raises this process's soft limit towards the hard one; says so when that is not enough.
private func raiseOpenFileLimit(toAtLeast wanted: Int) {
    var limit = rlimit()
    guard getrlimit(resourceNoFile, &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
    limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
    _ = setrlimit(resourceNoFile, &limit)
    if limit.rlim_cur < rlim_t(wanted) {
        warn(
            text(
                format:
                    "note: this shell allows %@ open files (ulimit -n); with --max-connections near that, connections wait in the queue",
                "\(limit.rlim_cur)"))
    }
}

#if canImport(Glibc)
    private let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
    private let resourceNoFile = RLIMIT_NOFILE
#endif
