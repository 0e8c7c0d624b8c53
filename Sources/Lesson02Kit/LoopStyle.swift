import Foundation

/// Three ways to write the loop at the heart of a run-loop thread. Only the last is right.
///
/// The article's loop is `do { [runLoop runMode:... beforeDate:[NSDate distantFuture]] } while (!done)`.
/// On iOS the NSURLConnection was an input source of that run loop, so `runMode:` slept until
/// the connection had something to say. On Linux nothing is attached unless you attach it, and
/// a run loop with nothing attached does not sleep: `run(mode:before:)` returns at once.
public enum LoopStyle: String, CaseIterable, Sendable {
    /// (a) Nothing keeps the loop alive. Between callbacks `run(mode:before:)` finds no source
    /// and returns immediately, so `while` spins: a whole core, doing nothing.
    case noSource = "no-source"
    /// (b) A source is attached, but the deadline is "now" (old sample code passed `[NSDate date]`),
    /// so every call times out at once. The same spin, for another reason.
    case pastDeadline = "past-deadline"
    /// (c) A far-future timer keeps the loop alive and the deadline is `.distantFuture`: the
    /// thread sleeps in the kernel (ppoll) until a timer is added for it, and uses no CPU.
    case keepAlive = "keep-alive"

    public var explanation: String {
        switch self {
        case .noSource: localized("no source attached: run(mode:before:) returns immediately, the loop spins")
        case .pastDeadline:
            localized("deadline already past: every run(mode:before:) times out at once, the loop spins")
        case .keepAlive:
            localized("a far-future timer keeps the loop alive, deadline .distantFuture: it sleeps between callbacks")
        }
    }
}
