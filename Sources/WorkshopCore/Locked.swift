import Foundation

/// A value guarded by an `NSLock`. Every read and write goes through `withLock`, so two
/// threads never touch the value at the same time. This is the one lock most core types use.
///
/// The value is `Sendable`: a copy of it (`current`) or a part of it that `withLock` returns
/// is used after the lock is released, on whatever thread the caller is on, which is safe only
/// for a value that may cross threads. (A non-`Sendable` class inside would leave the lock
/// with it: keep it out, or wrap the one thing other threads may do with it, as
/// `SharedRunLoop` does for a run loop.)
///
/// Why not `Synchronization.Mutex`, which needs no `@unchecked`: on Linux a `Mutex` waits on a
/// futex, which the thread sanitizer does not see, so under `--sanitize=thread` it reports
/// races inside `Mutex.withLock` (measured with Swift 6.3.1: eight threads adding one in
/// `withLock`, two reports in two runs of three, the sum right every time). An `NSLock` is a
/// pthread mutex, which the sanitizer knows: no report.
public final class Locked<Value: Sendable>: @unchecked Sendable {  // @unchecked: `lock` guards `value`
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    public var current: Value { withLock { $0 } }
}
