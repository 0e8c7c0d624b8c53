// What exercise 01a's file codes against: the account service and the screen, as the app gives
// them. Compiled with your file, the checks and the driver (and seen by your editor through
// ../compile_flags.txt).
import ExerciseChecks
import Foundation
import WorkshopCore

/// Exercise 01a's account service: login, then the user and their items, each request a fake
/// network call that suspends the calling task for `latency` seconds. It logs when each call
/// starts and how it ends: answered, cancelled (the calling task was cancelled while it
/// waited) or failed.
public struct AccountService: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        case itemsUnavailable
    }

    struct Call: Sendable {
        var name: String
        var started: Double
        var ended: Double?
        var outcome = "in flight"
    }

    let loginLatency: Double
    let latency: Double
    let failItems: Bool
    /// Every call so far. A lock, not an actor: logging must add no suspension point of its
    /// own, and the checks read the log from the main thread while calls run elsewhere.
    let log = Locked<[Call]>([])
    /// When set, the user and the items requests wait here until both have started (at most
    /// `pairTimeout`): code that starts them side by side shows it however slow the machine.
    let pair: AsyncGate?
    /// Called (on the calling task's thread) when the user or the items request has started.
    let onStart: (@Sendable () -> Void)?

    static let pairTimeout = 2.0

    init(
        loginLatency: Double, latency: Double, failItems: Bool = false, waitForPair: Bool = false,
        onStart: (@Sendable () -> Void)? = nil
    ) {
        self.loginLatency = loginLatency
        self.latency = latency
        self.failItems = failItems
        self.pair = waitForPair ? AsyncGate() : nil
        self.onStart = onStart
    }

    /// A session token.
    public func login() async throws -> String {
        try await call("login", loginLatency) { "token-42" }
    }

    /// The user's name.
    public func user(token: String) async throws -> String {
        try await call("user", latency) { "Aiko" }
    }

    /// The user's items.
    public func items(token: String) async throws -> [String] {
        try await call("items", latency) { ["tea", "rice", "fan"] }
    }

    func call<T>(_ name: String, _ seconds: Double, answer: () -> T) async throws -> T {
        let index = log.withLock { calls in
            calls.append(Call(name: name, started: monotonicSeconds()))
            return calls.count - 1
        }
        func end(_ outcome: String) {
            log.withLock {
                $0[index].ended = monotonicSeconds()
                $0[index].outcome = outcome
            }
        }
        do {
            if name != "login" {
                onStart?()
                if let pair {
                    let both = log.withLock { Set($0.map(\.name)).isSuperset(of: ["user", "items"]) }
                    if both { pair.open() }
                    try await pair.wait(timeout: Self.pairTimeout)
                }
            }
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        } catch {
            end("cancelled")
            throw error
        }
        if name == "items" && failItems {
            end("failed")
            throw Failure.itemsUnavailable
        }
        end("answered")
        return answer()
    }

    var calls: [Call] { log.current }

    /// The most calls among `names` in flight at the same moment.
    func peakInFlight(of names: Set<String>) -> Int {
        let calls = self.calls.filter { names.contains($0.name) }
        return calls.map { call in
            calls.filter { $0.started <= call.started && ($0.ended ?? .infinity) > call.started }.count
        }.max() ?? 0
    }
}

/// Exercise 01a's screen: it belongs to the main actor, and records what it was asked to show.
@MainActor
public final class AccountScreen {
    struct Shown {
        var user: String
        var items: [String]
        var at: Double
    }

    var shown: [Shown] = []

    public init() {}

    /// Shows the account.
    public func show(user: String, items: [String]) {
        shown.append(Shown(user: user, items: items, at: monotonicSeconds()))
    }
}
