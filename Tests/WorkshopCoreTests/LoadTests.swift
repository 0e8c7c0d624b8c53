import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// Whether this test process was built with `-sanitize=thread` (`swift test --sanitize=thread`).
let underThreadSanitizer: Bool = {
    #if os(Linux)
        return dlsym(nil, "__tsan_init") != nil
    #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
    #endif
}()

/// The load test: every request answered and counted, by the server's own count (no clock).
/// Its 150 threads share the cores with whatever runs beside it, as a room's laptop does.
@Suite struct LoadTests {
    /// 64 clients x 50 requests, as the issue asks, in a plain run (about 3 s in a debug build on
    /// 2 cores). Under the thread sanitizer every lock and thread is several times slower (the full
    /// load took 10 s there), so it drives half the clients with half the requests each: a quarter
    /// of the load, still 1,600 requests on 842 connections, about 2 s.
    static let plan =
        underThreadSanitizer
        ? LoadCheck.Plan(clients: 32, requestsPerClient: 25, silentClients: 10)
        : LoadCheck.Plan(clients: 64, requestsPerClient: 50, silentClients: 10)

    /// Many clients kept alive and not, with silent clients holding on: no error, nothing lost,
    /// by the server's own count.
    @Test func loadLosesNothing() throws {
        let plan = Self.plan
        // A read timeout far longer than the run: the silent clients must still be there at the end.
        let report = try LoadCheck.run(plan, knobs: ServerKnobs(readTimeoutSeconds: 300))
        #expect(report.ok, "\(report.lines.joined(separator: "\n"))")
        #expect(report.phases.map(\.keepAlive) == [true, false])
        for phase in report.phases {
            #expect(phase.sent == plan.requestsPerPhase, "\(phase.line)")
            #expect(phase.ok == plan.requestsPerPhase, "\(phase.line)")
            #expect(phase.errors == 0, "\(phase.errorSamples)")
            #expect(phase.latencies.count == plan.requestsPerPhase)
            #expect(phase.percentile(0.5) <= phase.percentile(0.99))
        }
        // Kept alive means one connection per client; otherwise one per request.
        #expect(report.phases.first?.connections == plan.clients)
        #expect(report.phases.last?.connections == plan.requestsPerPhase)

        let server = report.server
        #expect(server.requests == 2 * plan.requestsPerPhase)
        #expect(server.responses == 2 * plan.requestsPerPhase)
        #expect(server.connections == plan.clients + plan.requestsPerPhase + plan.silentClients)
        #expect(server.rejected == 0)
        #expect(server.badRequests == 0)
        #expect(server.readTimeouts == 0)
        #expect(server.writeFailures == 0)
        #expect(server.requests(under: "/timeline") == 2 * plan.clients * ((plan.requestsPerClient + 20) / 21))
        #expect(report.silentStillOpen == plan.silentClients)
    }

    /// The report counts a lost request as a problem: here a server that refuses connections over its limit.
    @Test func problemsAreReported() throws {
        // 4 silent clients on a server that serves 4: every load request gets 503.
        let plan = LoadCheck.Plan(clients: 2, requestsPerClient: 3, silentClients: 4)
        let report = try LoadCheck.run(plan, knobs: ServerKnobs(maxConnections: 4, readTimeoutSeconds: 300))
        #expect(!report.ok)
        #expect(report.phases.allSatisfy { $0.errors == plan.requestsPerPhase })
        #expect(report.phases.allSatisfy { $0.errorSamples.first?.contains("HTTP 503") == true })
        #expect(report.problems.contains { $0.contains("rejected with 503") })
        #expect(report.lines.last?.hasPrefix("PROBLEM") == true)
    }
}
