// What exercise R2's file codes against: the avatar loader, a fake network, as the app gives
// it. Compiled with your file, the checks and the driver (and seen by your editor through
// ../compile_flags.txt).
import ExerciseChecks
import Foundation
import WorkshopCore

/// Exercise R2's avatar service: a fake network call per fetch that suspends the calling task
/// for `latency` seconds. Each fetch of a name answers a new version of its avatar ("aiko#1",
/// then "aiko#2"), so two fetches of one name can be told apart, and it counts the fetches.
public struct AvatarLoader: Sendable {
    public struct Unavailable: Error, Sendable {}

    let latency: Double
    /// The name whose first fetch fails.
    let failingOnce: String?
    /// Fetches so far, per name. A lock, not an actor: counting must add no suspension point
    /// of its own (the bug this exercise is about lives at suspension points).
    let fetches = Locked<[String: Int]>([:])
    /// Callers that asked the cache so far, and how many are coming. No fetch answers before
    /// they all have asked (or, once, `arrivalTimeout` passed): a cache that lets a second
    /// caller start a second fetch shows it however slow the machine.
    let arrivals = Locked((asked: 0, expected: 0))
    let allAsked = AsyncGate()
    static let arrivalTimeout = 1.0

    init(latency: Double, failingOnce: String? = nil, callers: Int = 0) {
        self.latency = latency
        self.failingOnce = failingOnce
        arrivals.withLock { $0.expected = callers }
        if callers == 0 { allAsked.open() }
    }

    /// A caller is about to ask the cache.
    func arrive() {
        let all = arrivals.withLock { counts -> Bool in
            counts.asked += 1
            return counts.asked >= counts.expected
        }
        if all { allAsked.open() }
    }

    /// The avatar of `name`, after a network-like wait.
    public func fetch(_ name: String) async throws -> String {
        let number = fetches.withLock { counts in
            counts[name, default: 0] += 1
            return counts[name] ?? 0
        }
        if try await !allAsked.wait(timeout: Self.arrivalTimeout) { allAsked.open() }
        try await Task.sleep(nanoseconds: UInt64(latency * 1e9))
        if name == failingOnce && number == 1 { throw Unavailable() }
        return "\(name)#\(number)"
    }

    var counts: [String: Int] { fetches.current }
}
