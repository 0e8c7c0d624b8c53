import Foundation
import WorkshopCore

/// A token bucket per client address: `burst` requests at once, then `perSecond`. So one laptop
/// (or one script) flooding the board is answered 429 and costs the others nothing.
///
/// A plain value: `RoomBoard` keeps it under its lock.
struct RateLimit {
    struct Bucket {
        var tokens: Double
        var updated: Double
        /// When a refusal was last logged: the log says so once per flood, not once per request.
        var loggedAt = -Double.infinity
    }

    let burst: Double
    let perSecond: Double
    private(set) var buckets: [String: Bucket] = [:]
    /// A flood is said again in the log after this long.
    static let logEvery = 10.0
    /// Beyond this many addresses, the full buckets (idle addresses) are forgotten.
    static let addressesKept = 4096

    init(burst: Int, perSecond: Double) {
        self.burst = Double(max(1, burst))
        self.perSecond = max(0.01, perSecond)
    }

    enum Answer: Equatable {
        case allowed
        /// Refused; `first` when the log should say so (the first refusal in `logEvery` seconds).
        case refused(first: Bool)
    }

    /// Takes a token for `address` at monotonic time `now`.
    mutating func take(_ address: String, now: Double) -> Answer {
        if buckets.count > Self.addressesKept { forgetIdle(now: now) }
        var bucket = buckets[address] ?? Bucket(tokens: burst, updated: now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * perSecond)
        bucket.updated = now
        let answer: Answer
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            answer = .allowed
        } else {
            let first = now - bucket.loggedAt >= Self.logEvery
            if first { bucket.loggedAt = now }
            answer = .refused(first: first)
        }
        buckets[address] = bucket
        return answer
    }

    private mutating func forgetIdle(now: Double) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + (now - bucket.updated) * perSecond < burst
        }
    }
}
