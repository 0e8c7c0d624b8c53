import Foundation
import WorkshopCore

/// Many clients at once against a fixture server, counted on both sides: what a room of
/// laptops does to the instructor's server. Each client is a thread with an `HTTPConnection`
/// and asks what lesson 03 asks (one timeline, then icons, gzip accepted), either on one kept-alive
/// connection or on a new connection per request. Silent clients connect, send nothing and
/// hold their connections for the whole run.
///
/// Used by `fixture-server --self-check` and by the load test, so both run the same load.
public enum LoadCheck {
    public struct Plan: Sendable, Equatable {
        /// Clients sending at the same time.
        public var clients: Int
        /// Requests each client sends, one after another.
        public var requestsPerClient: Int
        /// Connections that send nothing and stay open through the run.
        public var silentClients: Int
        /// Seconds a client waits for one answer before it counts an error.
        public var requestTimeout: Double

        public init(
            clients: Int = 64, requestsPerClient: Int = 50, silentClients: Int = 10, requestTimeout: Double = 10
        ) {
            self.clients = clients
            self.requestsPerClient = requestsPerClient
            self.silentClients = silentClients
            self.requestTimeout = requestTimeout
        }

        public var requestsPerPhase: Int { clients * requestsPerClient }
    }

    /// One run of every client: all on kept-alive connections, or a new connection per request.
    public struct Phase: Sendable {
        public var keepAlive: Bool
        /// Requests the clients began to send.
        public var sent = 0
        /// Complete 200 answers with the body they should have.
        public var ok = 0
        public var errors = 0
        /// The first few errors, in words.
        public var errorSamples: [String] = []
        /// Connections the clients opened.
        public var connections = 0
        /// From the first client starting to the last one done.
        public var seconds = 0.0
        /// Seconds per answered request (request written to body read, plus the connect when
        /// there is a new connection per request), sorted.
        public var latencies: [Double] = []

        public var requestsPerSecond: Double { seconds > 0 ? Double(ok) / seconds : 0 }

        /// The `fraction` (0...1) percentile of the latencies, nearest rank; 0 when there are none.
        public func percentile(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let rank = Int((fraction * Double(latencies.count)).rounded(.up))
            return latencies[min(max(rank, 1), latencies.count) - 1]
        }

        public var name: String { localized(keepAlive ? "keep-alive" : "new connection per request") }

        public var line: String {
            localized(
                format: "%@: %d requests, %d errors, %d connections, %.2f s: %.0f requests/s, p50 %.1f ms, p99 %.1f ms",
                name, sent, errors, connections, seconds, requestsPerSecond, percentile(0.5) * 1000,
                percentile(0.99) * 1000)
        }
    }

    public struct Report: Sendable {
        public var plan: Plan
        public var phases: [Phase] = []
        /// The server's own count at the end, before the silent clients left.
        public var server = ServerStats()
        /// Silent connections the server still held open at the end (all of them, if it is right).
        public var silentStillOpen = 0
        /// What went wrong, in words; empty when every request was answered and counted.
        public var problems: [String] = []

        public var ok: Bool { problems.isEmpty }

        public var lines: [String] {
            var lines = [
                localized(
                    format:
                        "self-check: %1$d clients x %2$d requests (a timeline, then icons, like lesson 03), twice; %3$d silent connections held open",
                    plan.clients, plan.requestsPerClient, plan.silentClients)
            ]
            lines += phases.map { "  " + $0.line }
            lines.append(
                "  "
                    + localized(
                        format:
                            "the server counted: %1$d requests, %2$d responses, %3$d connections, %4$d rejected (503), %5$d bad requests, %6$d read timeouts, %7$d write failures; %8$d of %9$d silent connections still open",
                        server.requests, server.responses, server.connections, server.rejected, server.badRequests,
                        server.readTimeouts, server.writeFailures, silentStillOpen, plan.silentClients))
            if problems.isEmpty {
                lines.append(localized("ok: zero errors, zero lost requests"))
            } else {
                lines += problems.map { localized("PROBLEM: ") + $0 }
            }
            return lines
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts a fixture server with `knobs` on 127.0.0.1 (a free port), drives `plan` against it
    /// twice (kept-alive, then a new connection per request) with the silent clients connected
    /// throughout, compares both sides' counts, and stops the server.
    public static func run(_ plan: Plan, knobs: ServerKnobs = ServerKnobs()) throws -> Report {
        let server = FixtureServer(knobs: knobs)
        try server.start()
        defer { server.stop() }
        let host = HostAddress.loopback.text
        var report = Report(plan: plan)

        var silent: [HTTPConnection] = []
        defer { for connection in silent { connection.close() } }
        for _ in 0..<plan.silentClients {
            do {
                silent.append(try HTTPConnection(host: host, port: server.port, timeout: plan.requestTimeout))
            } catch {
                report.problems.append(localized(format: "a silent client could not connect: %@", "\(error)"))
            }
        }
        if !server.waitForStats(timeout: plan.requestTimeout, until: { $0.openConnections >= silent.count }) {
            report.problems.append(
                localized(format: "the server did not accept the %d silent connections", silent.count))
        }

        for keepAlive in [true, false] {
            report.phases.append(drive(host: host, port: server.port, plan: plan, keepAlive: keepAlive))
        }
        let sent = report.phases.map(\.sent).reduce(0, +)
        let ok = report.phases.map(\.ok).reduce(0, +)
        // A client has its answer a moment before the server thread that wrote it counts it; once
        // every load connection is closed on the server's side too, everything is counted.
        server.waitForStats(timeout: plan.requestTimeout) { $0.openConnections <= silent.count }
        report.server = server.stats
        report.silentStillOpen = silent.filter(\.isOpenAndQuiet).count

        for phase in report.phases where phase.errors > 0 {
            report.problems.append(
                localized(format: "%1$d client errors (%2$@): ", phase.errors, phase.name)
                    + phase.errorSamples.joined(separator: "; "))
        }
        let stats = report.server
        if stats.requests != sent {
            report.problems.append(
                localized(format: "the clients sent %1$d requests, the server counted %2$d", sent, stats.requests))
        }
        if stats.responses != ok {
            report.problems.append(
                localized(
                    format: "the clients got %1$d answers, the server counted %2$d responses", ok, stats.responses))
        }
        if stats.rejected > 0 {
            report.problems.append(
                localized(format: "%d connections were rejected with 503 (--max-connections)", stats.rejected))
        }
        if stats.badRequests > 0 {
            report.problems.append(localized(format: "%d requests were refused as bad", stats.badRequests))
        }
        if stats.readTimeouts > 0 {
            report.problems.append(localized(format: "%d connections hit the read timeout", stats.readTimeouts))
        }
        if stats.writeFailures > 0 {
            report.problems.append(localized(format: "%d responses could not be written in full", stats.writeFailures))
        }
        if report.silentStillOpen != silent.count {
            report.problems.append(
                localized(
                    format:
                        "the server closed %1$d of %2$d silent connections during the run (is the read timeout, %3$@ s, shorter than the run?)",
                    silent.count - report.silentStillOpen, silent.count, "\(knobs.readTimeoutSeconds)"))
        }
        return report
    }

    /// Every client of `plan` once against host:port; returns when all are done (or after a
    /// generous bound, with the missing ones counted as errors).
    public static func drive(host: String, port: UInt16, plan: Plan, keepAlive: Bool) -> Phase {
        let results = Locked(Phase(keepAlive: keepAlive))
        let icons = Dictionary(uniqueKeysWithValues: FixtureAPI.userNames.map { ($0, FixtureAPI.icon(for: $0)) })
        let done = DispatchGroup()
        let clock = Stopwatch()
        for client in 0..<plan.clients {
            done.enter()
            let thread = Thread {
                let phase = runClient(
                    client, host: host, port: port, plan: plan, keepAlive: keepAlive, icons: icons)
                results.withLock { total in
                    total.sent += phase.sent
                    total.ok += phase.ok
                    total.errors += phase.errors
                    total.connections += phase.connections
                    total.latencies += phase.latencies
                    total.errorSamples += phase.errorSamples.prefix(max(0, 5 - total.errorSamples.count))
                }
                done.leave()
            }
            thread.name = "load client \(client)"
            thread.start()
        }
        // Each request is bounded by the socket timeouts, so this bound is only for a broken run.
        let bound = plan.requestTimeout * Double(plan.requestsPerClient) + 30
        let finished = done.wait(timeout: .now() + bound) == .success
        let seconds = clock.elapsed
        return results.withLock { phase in
            phase.seconds = seconds
            phase.latencies.sort()
            if !finished {
                let missing = plan.requestsPerPhase - phase.ok - phase.errors
                phase.errors += missing
                phase.errorSamples.append("\(missing) requests still unanswered after \(Int(bound)) s")
            }
            return phase
        }
    }

    /// The path of a client's i-th request: a timeline of 20 first, then its 20 icons, again.
    static func path(client: Int, request: Int) -> (path: String, icon: String?) {
        let step = request % 21
        if step == 0 { return ("/timeline?count=20", nil) }
        let name = FixtureAPI.userNames[(client * 7 + step) % FixtureAPI.userNames.count]
        return ("/icons/\(name).png", name)
    }

    private static func runClient(
        _ client: Int, host: String, port: UInt16, plan: Plan, keepAlive: Bool, icons: [String: [UInt8]]
    ) -> Phase {
        var phase = Phase(keepAlive: keepAlive)
        var connection: HTTPConnection?
        defer { connection?.close() }
        for request in 0..<plan.requestsPerClient {
            let (path, icon) = path(client: client, request: request)
            let started = monotonicSeconds()
            do {
                let open: HTTPConnection
                if let existing = connection {
                    open = existing
                } else {
                    open = try HTTPConnection(host: host, port: port, timeout: plan.requestTimeout)
                    phase.connections += 1
                }
                connection = open
                phase.sent += 1
                let answer = try open.exchange(
                    "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept-Encoding: gzip\r\n"
                        + (keepAlive ? "" : "Connection: close\r\n") + "\r\n")
                phase.latencies.append(monotonicSeconds() - started)
                if !keepAlive || answer.headers["connection"]?.lowercased() == "close" {
                    open.close()
                    connection = nil
                }
                if let problem = check(answer, path: path, icon: icon.flatMap { icons[$0] }) {
                    throw Failure(description: problem)
                }
                phase.ok += 1
            } catch {
                phase.errors += 1
                if phase.errorSamples.count < 5 { phase.errorSamples.append("\(path): \(error)") }
                connection?.close()
                connection = nil
            }
        }
        return phase
    }

    /// Nil when the answer is what the path should give.
    private static func check(_ answer: HTTPClient.Answer, path: String, icon: [UInt8]?) -> String? {
        guard answer.status == 200 else { return "HTTP \(answer.status)" }
        if let icon {
            return answer.body == icon ? nil : "the icon's bytes differ (\(answer.body.count) bytes)"
        }
        guard answer.headers["content-encoding"] == "gzip", answer.body.starts(with: [0x1F, 0x8B]) else {
            return "the timeline is not gzip (\(answer.body.count) bytes)"
        }
        return nil
    }
}
