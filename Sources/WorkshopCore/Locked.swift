import Foundation

/// A value guarded by an `NSLock`. Every read and write goes through `withLock`, so two
/// threads never touch the value at the same time. This is the one lock most core types use.
public final class Locked<Value>: @unchecked Sendable {  // @unchecked: `lock` guards `value`
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
