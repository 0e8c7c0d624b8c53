import Foundation

/// A value guarded by an `NSCondition`: like `Locked`, and a thread can wait for it to change
/// (a server's counters, a board's version, a child process's output).
///
/// Shaped like the standard library's `Mutex`, so that it is sound for any value: the value
/// goes in as `sending`, is changed only inside `withLock`, and what comes out is `sending`
/// too, so no reference into the guarded value can stay shared with another thread.
/// (Not `Mutex` itself, for the reason `Locked` gives, and because `Mutex` has no wait.)
public final class Watched<Value>: @unchecked Sendable {  // @unchecked: `condition` guards `value`
    private let condition = NSCondition()
    private var value: Value

    public init(_ value: sending Value) { self.value = value }

    /// Reads or changes the value under the lock, then wakes every waiter to look again.
    @discardableResult
    public func withLock<R>(_ body: (inout sending Value) throws -> sending R) rethrows -> sending R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `predicate` holds or `timeout` seconds pass. Returns whether it holds.
    /// `predicate` reads the value under the lock, each time it may have changed (it gets it
    /// `inout sending`, as `withLock`'s body does, so that it can keep no reference into it).
    @discardableResult
    public func wait(timeout: Double, until predicate: (inout sending Value) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        condition.lock()
        defer { condition.unlock() }
        while !predicate(&value) {
            if !condition.wait(until: deadline) { return predicate(&value) }
        }
        return true
    }
}
