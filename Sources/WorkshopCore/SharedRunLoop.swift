import Foundation

/// A thread's run loop as other threads may hold it: for the one thing they do with it here,
/// adding a timer to it (the wake-up that makes a sleeping loop run what they posted).
///
/// `RunLoop` itself is not `Sendable` (Foundation marks the conformance unavailable): most of
/// what it does belongs to its own thread. Adding a timer is the exception: in
/// swift-corelibs-foundation `add(_:forMode:)` is `CFRunLoopAddTimer`, which takes the run
/// loop's own lock (`__CFRunLoopLock`) before it touches the loop's modes, and the timer then
/// fires on the loop's thread.
public struct SharedRunLoop: @unchecked Sendable {  // @unchecked: CFRunLoopAddTimer takes the loop's lock
    private let runLoop: RunLoop

    /// The calling thread's run loop (`RunLoop.current`), for other threads to add timers to.
    public init(_ runLoop: RunLoop) { self.runLoop = runLoop }

    /// Adds `timer` to the run loop, from any thread.
    public func add(_ timer: Timer, forMode mode: RunLoop.Mode) { runLoop.add(timer, forMode: mode) }
}
