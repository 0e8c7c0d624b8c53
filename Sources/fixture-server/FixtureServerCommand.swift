import ArgumentParser
import Foundation
import WorkshopCore

@main
struct FixtureServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture-server",
        abstract: "Serve the workshop's fixture API on 127.0.0.1 and log every request.",
        discussion: """
        Routes: /timeline?count=N (JSON) and /icons/NAME.png (lesson 03); /api/login?user=&password=, \
        /api/user and /api/items/N (lesson 01); /feed.xml?items=N (lesson 02); /xml/friends, \
        /xml/statuses and /xml/catalog with ?count=N (lesson 04); /orders (lesson 05); /health. \
        Any request may add query \
        items latency=SECONDS, bandwidth=BYTES_PER_SECOND, gzip=0|1, and \
        fault=500|drop|stall|corrupt-gzip|truncated-gzip|malformed.
        Lessons use it with --server http://127.0.0.1:PORT. Stop it with Ctrl-C.
        Try: curl -s 'http://127.0.0.1:8080/timeline?count=2'
        """
    )

    @Option(help: "TCP port on 127.0.0.1 (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: ArgumentHelp("Seconds to wait before each response.", valueName: "seconds"))
    var latency: Double = 0

    @Option(help: ArgumentHelp("Bytes per second for responses (0 = no limit).", valueName: "bytes-per-second"))
    var bandwidth: Int = 0

    @Flag(inversion: .prefixedNo, help: "Compress with gzip when the client accepts it.")
    var gzip = true

    @Option(help: ArgumentHelp("Send Cache-Control: max-age=N with every 200 response.", valueName: "seconds"))
    var maxAge: Int?

    func validate() throws {
        guard (0...60).contains(latency) else { throw ValidationError("--latency must be between 0 and 60 seconds") }
        guard bandwidth >= 0 else { throw ValidationError("--bandwidth must be 0 (no limit) or positive") }
    }

    func run() throws {
        let knobs = ServerKnobs(latencySeconds: latency, bandwidthBytesPerSecond: bandwidth, gzip: gzip,
                                maxAgeSeconds: maxAge)
        let clock = Stopwatch()
        let server = FixtureServer(knobs: knobs) { entry in
            say(String(format: "%9.3f  ", clock.elapsed) + entry.line)
        }
        let url: URL
        do { url = try server.start(port: port) } catch { throw ValidationError("\(error)") }
        say("fixture server on \(url.absoluteString)  (latency \(latency) s, bandwidth \(bandwidth == 0 ? "unlimited" : "\(bandwidth) B/s"), gzip \(gzip ? "on" : "off"))")
        say("try: curl -s '\(url.absoluteString)/timeline?count=2'")
        // Serve until Ctrl-C: the main thread only waits; the server has its own threads.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interrupt.setEventHandler {
            say("stopping")
            server.stop()
            Foundation.exit(0)
        }
        interrupt.resume()
        dispatchMain()
    }
}
