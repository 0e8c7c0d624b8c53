import Dispatch

/// Monotonic seconds since an arbitrary start. Wall-clock `Date()` can jump (NTP); for
/// measuring how long something took we want a clock that only moves forward.
public func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
}

/// A stopwatch started at creation: `elapsed` is seconds since then.
public struct Stopwatch: Sendable {
    public let startedAt: Double
    public init() { startedAt = monotonicSeconds() }
    public var elapsed: Double { monotonicSeconds() - startedAt }
    /// Seconds between the start and a monotonic time stamp taken earlier with `monotonicSeconds()`.
    public func offset(of timestamp: Double) -> Double { timestamp - startedAt }
}
